"""Showdowns for the ``hands`` family: pinned hands played to a showdown with check/call answers.

Game showdowns are judged on the awards and the history's ``hand`` names, so an engine whose
showdown path ranks hands differently from its ``evaluate`` cannot pass. Three kinds:

- ``CATEGORY_PAIRS``: one hand for each pair of categories, the higher beating the lower. Two of
  the 36 pairs cannot happen in hold'em and are left out: a full house or quads needs a paired
  board (two hole cards make at most trips with an unpaired board), and a paired board gives
  every seat at least one pair, so nobody can hold a high card.
- ``SAME_CATEGORY``: within each category, the tiebreak or kicker that decides, and ties.
- ``TRAPS``: best-five mistakes (issue #12 item 5), and multiway splits with odd chips (R13).

Every entry states the categories and winners it is meant to show; the generator checks them
against the reference, so a mistyped card cannot silently test something else.
"""
from dataclasses import dataclass

from reference.evaluator import NAMES, hand_value
from reference.scenario import pinned_deck

from conformance.vectors.gamespec import caller, game, tournament

SLUG = {"High card": "high-card", "One pair": "one-pair", "Two pair": "two-pair", "Three of a kind": "trips",
        "Straight": "straight", "Flush": "flush", "Full house": "full-house", "Four of a kind": "quads",
        "Straight flush": "straight-flush"}
IMPOSSIBLE_PAIRS = {("Full house", "High card"), ("Four of a kind", "High card")}

# (winner's category, loser's category, board, winner's hole cards, loser's hole cards)
CATEGORY_PAIRS = [
    ("Straight flush", "Four of a kind", "9s8s7s9d2c", "6s5s", "9h9c"),
    ("Straight flush", "Full house", "9s8s7s9d2c", "6s5s", "9h8d"),
    ("Straight flush", "Flush", "9s8s7s2sKd", "6s5s", "AsQs"),
    ("Straight flush", "Straight", "9s8s7sKd2c", "6s5s", "Th6d"),
    ("Straight flush", "Three of a kind", "9s8s7sKd2c", "6s5s", "KhKc"),
    ("Straight flush", "Two pair", "9s8s7sKd2c", "6s5s", "Kh9d"),
    ("Straight flush", "One pair", "9s8s7sKd2c", "6s5s", "AhAd"),
    ("Straight flush", "High card", "9s8s7sKd2c", "6s5s", "AhQd"),
    ("Four of a kind", "Full house", "QhQd5s5d2c", "QsQc", "5h2d"),
    ("Four of a kind", "Flush", "QhQd7h4h2c", "QsQc", "AhKh"),
    ("Four of a kind", "Straight", "QhQdJcTc2s", "QsQc", "AdKd"),
    ("Four of a kind", "Three of a kind", "7c7d7hKs2d", "7sAh", "AdQd"),
    ("Four of a kind", "Two pair", "QhQd7c4s2d", "QsQc", "7h4d"),
    ("Four of a kind", "One pair", "QhQd7c4s2d", "QsQc", "AhKd"),
    ("Full house", "Flush", "KhKd7h4h2c", "Kc7c", "AhQh"),
    ("Full house", "Straight", "KhKdQcJc2s", "KcQd", "AhTd"),
    ("Full house", "Three of a kind", "KhKd7c4s2d", "7h7d", "KcAd"),
    ("Full house", "Two pair", "KhKd7c4s2d", "7h7d", "Ah4d"),
    ("Full house", "One pair", "KhKd7c4s2d", "7h7d", "AhQd"),
    ("Flush", "Straight", "9h8h7c2hKd", "AhQh", "Td6d"),
    ("Flush", "Three of a kind", "9h8h7c2hKd", "AhQh", "KcKs"),
    ("Flush", "Two pair", "9h8h7c2hKd", "AhQh", "Kc9c"),
    ("Flush", "One pair", "9h8h7c2hKd", "AhQh", "AcAd"),
    ("Flush", "High card", "9h8h7c2hKd", "AhQh", "AcQd"),
    ("Straight", "Three of a kind", "9h8d7c2sKd", "Td6c", "KhKc"),
    ("Straight", "Two pair", "9h8d7c2sKd", "Td6c", "Kc9c"),
    ("Straight", "One pair", "9h8d7c2sKd", "Td6c", "AhAd"),
    ("Straight", "High card", "9h8d7c2sKd", "Td6c", "AcQd"),
    ("Three of a kind", "Two pair", "9h8d4c2sKd", "9c9s", "Kh8h"),
    ("Three of a kind", "One pair", "9h8d4c2sKd", "9c9s", "AhAd"),
    ("Three of a kind", "High card", "9h8d4c2sKd", "9c9s", "AcQd"),
    ("Two pair", "One pair", "9h8d4c2sKd", "Kh8h", "AhAd"),
    ("Two pair", "High card", "9h8d4c2sKd", "Kh8h", "AcQd"),
    ("One pair", "High card", "9h8d4c2sKd", "AhAd", "AcQd"),
]

# slug, clauses, board, holes (seat order; 2 or 3 seats), each seat's category, the seats awarded chips
SAME_CATEGORY = [
    ("high-card-fifth-card-decides", ["rules.best-five"], "KsQd9h5c2d", ["Ah7c", "Ad6c"],
     ["High card", "High card"], {0}),
    ("one-pair-third-kicker-decides", ["rules.best-five"], "AhKdQc4s2h", ["AcJd", "As9d"],
     ["One pair", "One pair"], {0}),
    ("one-pair-kicker-tie", ["rules.best-five", "rules.split"], "AhKdQcJs3h", ["As9d", "Ac8d"],
     ["One pair", "One pair"], {0, 1}),
    ("two-pair-kicker-decides", ["rules.best-five"], "KhKd7c7s3h", ["Qd2c", "Ad2d"],
     ["Two pair", "Two pair"], {1}),
    ("two-pair-second-pair-decides", ["rules.best-five"], "KhKd7c4s2h", ["Ac4h", "Qc7h"],
     ["Two pair", "Two pair"], {1}),
    ("trips-second-kicker-decides", ["rules.best-five"], "9h9dKs5c2d", ["9cQd", "9sJd"],
     ["Three of a kind", "Three of a kind"], {0}),
    # The group's rank decides before any kicker: aces beat kings with the better kicker (issue #37).
    ("trips-higher-rank-beats-higher-kicker", ["rules.best-five"], "AhKd7c4s2h", ["KsKc", "AsAc"],
     ["Three of a kind", "Three of a kind"], {1}),
    ("straight-higher-top-card", ["rules.best-five"], "9h8d7c2sKd", ["Td6c", "TcJd"],
     ["Straight", "Straight"], {1}),
    ("flush-fifth-card-decides", ["rules.best-five"], "AhKh9h7h2c", ["4h3d", "3h4d"],
     ["Flush", "Flush"], {0}),
    ("flush-of-the-board-plays", ["rules.best-five", "rules.split"], "AhKh9h7h5h", ["4h3d", "3h4d"],
     ["Flush", "Flush"], {0, 1}),
    ("full-house-higher-pair", ["rules.best-five"], "KhKdKc7s2d", ["2c3d", "AhAd"],
     ["Full house", "Full house"], {1}),
    # Trips and two pairs: the higher pair completes the full house (kings full of sevens beat fives).
    ("full-house-best-of-two-pairs", ["rules.best-five"], "KhKdKc7s2d", ["7h2c", "5c5d"],
     ["Full house", "Full house"], {0}),
    ("full-house-higher-trips", ["rules.best-five"], "KhKd7c7s2d", ["7hAd", "KcAh"],
     ["Full house", "Full house"], {1}),
    ("quads-kicker-decides", ["rules.best-five"], "9c9d9h9s2d", ["Ah3c", "KhQd"],
     ["Four of a kind", "Four of a kind"], {0}),
    ("quads-higher-rank-beats-higher-kicker", ["rules.best-five"], "AhAdKhKd2c", ["KsKc", "AsAc"],
     ["Four of a kind", "Four of a kind"], {1}),
    ("quads-kicker-tie", ["rules.best-five", "rules.split"], "9c9d9h9sKd", ["QhJh", "Qd2c"],
     ["Four of a kind", "Four of a kind"], {0, 1}),
    ("straight-flush-higher", ["rules.best-five"], "9s8s7s6s2d", ["5sAh", "TsAd"],
     ["Straight flush", "Straight flush"], {1}),
    ("suits-do-not-break-a-tie", ["rules.suits", "rules.split"], "Kc9d7h4s2c", ["AhQd", "AdQh"],
     ["High card", "High card"], {0, 1}),
]

TRAPS = [
    # Seven cards holding trips and a straight: the straight counts (the J-high beats the 9-high).
    ("trips-with-a-straight", ["rules.best-five"], "7c7s8d9hJd", ["7dTh", "6h5d"],
     ["Straight", "Straight"], {0}),
    # A third pair is only a kicker candidate: KKQQ with the 8 beats KKQQ with the 7.
    ("three-pairs-third-pair-kicks", ["rules.best-five"], "KhKdQcQs5h", ["8c8d", "7c2d"],
     ["Two pair", "Two pair"], {0}),
    # Three pairs: the best two pairs play (KK 99), not the board's (KK 77).
    ("three-pairs-best-two-play", ["rules.best-five"], "KhKd7c7s2h", ["9c9d", "Ah3c"],
     ["Two pair", "Two pair"], {0}),
    # Two trips make a full house (nines full of fives), which beats a flush.
    ("two-trips-full-house", ["rules.best-five"], "9c9d5c5hKc", ["9h5s", "AcQc"],
     ["Full house", "Flush"], {0}),
    # Seven suited cards holding a straight flush: not just the top five of the suit.
    ("seven-suited-straight-flush", ["rules.best-five"], "5h6h7h8hKh", ["9h2h", "Ah3c"],
     ["Straight flush", "Flush"], {0}),
    # Six suited cards with an off-suit straight are a flush, not a straight flush.
    ("six-suited-with-a-straight", ["rules.best-five"], "4h5h6h7cKh", ["8d2h", "Ah3h"],
     ["Flush", "Flush"], {1}),
    ("wheel-loses-to-six-high", ["rules.wheel", "rules.best-five"], "Ah2d3c4s9h", ["5hKd", "5c6d"],
     ["Straight", "Straight"], {1}),
    ("wheel-beats-trips", ["rules.wheel", "rules.best-five"], "Ah2d3c9sKd", ["4c5d", "KhKc"],
     ["Straight", "Three of a kind"], {0}),
    # The board's straight plays for both: a pair or a lower straight in the hole does not count.
    ("the-board-plays", ["rules.best-five", "rules.split"], "9c8d7h6s5c", ["4h4d", "Kh2d"],
     ["Straight", "Straight"], {0, 1}),
    # The hole cards' two pair (7s and 6s) is counterfeited by the board's two higher pairs.
    ("counterfeited-two-pair", ["rules.best-five"], "KcKdQhQs5h", ["7c6d", "Ad2c"],
     ["Two pair", "Two pair"], {1}),
    # A three-way tie: 300 chips split evenly among three seats.
    ("three-way-split", ["rules.split", "rules.best-five"], "AsKsQdJhTc", ["2c3d", "4c5d", "6c7d"],
     ["Straight", "Straight", "Straight"], {0, 1, 2}),
]

# Multiway splits with odd chips (R13). slug, stacks, blinds, holes, board, each seat's category,
# the seats awarded chips.
ODD_CHIPS = [
    # Three call a big blind of 51: two straights split 153, the odd chip to seat 1 (left of the button).
    ("two-of-three-split-with-odd-chip", [1000, 1000, 1000], (25, 51), ["Tc6d", "Td6h", "AhAd"], "9c8d7h2s2c",
     ["Straight", "Straight", "Two pair"], {0, 1}),
    # Seat 3 calls all-in short; main pot 176 (4 x 44) three ways, odd chips to seats 1 and 2; side pot 18.
    ("three-way-split-with-odd-chips", [1000, 1000, 1000, 44], (25, 50), ["Ah2c", "Ad3c", "Ac4d", "9h8h"],
     "KsQdJhTc3s", ["Straight", "Straight", "Straight", "Straight"], {0, 1, 2}),
    # The short stack wins the main pot (172); the side pot of 21 splits two ways, odd chip to seat 2.
    ("side-pot-split-with-odd-chip", [1000, 1000, 1000, 43], (25, 50), ["7h2c", "3c4d", "7d2d", "AhAd"],
     "AsKd7c7s9h", ["Three of a kind", "One pair", "Three of a kind", "Full house"], {0, 2, 3}),
]


def check_down(spec: dict) -> list:
    """The check/call answers that play the one pinned hand of ``spec`` to its showdown."""
    t, script = tournament(spec), []
    while not t.over:
        script.append(caller(t.decision_state()))
        t.act(script[-1])
    return script


@dataclass
class Showdown:
    slug: str
    clauses: list[str]
    stacks: list[int]
    holes: list[str]
    board: str
    categories: list[str]
    winners: set[int]
    blinds: tuple[int, int] = (25, 50)

    def spec(self) -> dict:
        n = len(self.holes)
        return game([f"P{i}" for i in range(n)], stacks=self.stacks, blindSchedule=[list(self.blinds)], maxHands=1,
                    decks={1: pinned_deck(dict(enumerate(self.holes)), n, 0, self.board)})

    def comment(self) -> str:
        hands = " vs ".join(f"{h} ({c})" for h, c in zip(self.holes, self.categories))
        return f"{len(self.holes)} seats, board {self.board}: {hands}"

    def check(self, hand) -> None:
        """Raise if the reference's showdown (a finished ``reference.hand``) is not the one meant."""
        board = [self.board[i:i + 2] for i in range(0, len(self.board), 2)]
        got = [NAMES[hand_value([h[:2], h[2:], *board]) // 15**5] for h in self.holes]
        awarded = {s for s, amount in enumerate(hand.awards) if amount > 0}
        if got != self.categories or awarded != self.winners:
            raise AssertionError(f"showdown {self.slug}: categories {got} and winners {sorted(awarded)}, "
                                 f"meant {self.categories} and {sorted(self.winners)}")


def showdowns() -> list[Showdown]:
    out = []
    for k, (high, low, board, win, lose) in enumerate(CATEGORY_PAIRS):
        # Alternate the winner's seat so that no seat order decides the pot.
        holes, cats, winner = ([win, lose], [high, low], 0) if k % 2 == 0 else ([lose, win], [low, high], 1)
        out.append(Showdown(f"{SLUG[high]}-beats-{SLUG[low]}", ["rules.best-five"], [1000, 1000], holes, board, cats, {winner}))
    for slug, clauses, board, holes, cats, winners in SAME_CATEGORY + TRAPS:
        out.append(Showdown(slug, clauses, [1000] * len(holes), holes, board, cats, winners))
    for slug, stacks, blinds, holes, board, cats, winners in ODD_CHIPS:
        clauses = ["rules.odd-chips", "rules.split"] + (["rules.side-pots"] if len(set(stacks)) > 1 else [])
        out.append(Showdown(slug, clauses, stacks, holes, board, cats, winners, blinds))
    return out
