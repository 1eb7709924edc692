"""Family ``equity``: exact equities by enumeration with the tolerance a Monte Carlo answer of
N iterations must meet, bit-exact streams under R6, and argument errors."""
import math

from reference.adapter import random_argument, run_equity
from reference.equity import equity, exact_equity
from reference.errors import EquityError
from reference.rng import mulberry32

from conformance.vectors.vectorfile import make_test

Z = 5.0  # a correct engine fails one such vector with probability about 6e-7
ITERATIONS = 4000
FLOOR = 1e-9  # a certain spot's tolerance: sums of 1/(1+t) may round differently
REFERENCE_ITERATIONS = 20_000  # the reference's own estimate where enumeration is too long
NOTES = {
    "Statistical": {"description": f"run equity with the given iterations and a mulberry32 stream; pass when "
                    f"|result - exact| <= tolerance = {Z:g} * sqrt(variance / iterations)", "clauses": ["helper.equity"], "ruling": None},
    "NoOpponents": {"description": "with no opponents the hero's share is always 1", "clauses": ["helper.equity"], "ruling": None},
    "ExactStream": {"description": "with the same random stream our sampling procedure gives exactly this double; "
                    "another procedure is divergent only when its result is within tolerance of equity (exact by "
                    "enumeration, or the reference's estimate from 20,000 draws; Z standard errors, the variance of a "
                    "share bounded by p(1-p)): a mis-ranked hand or a tie shared wrongly fails", "clauses": ["helper.equity"], "ruling": "R6"},
    "ZeroDraw": {"description": "random() may return 0 (in [0,1)): equity must not throw; with R6's procedure every draw "
                 "takes the front card (j = k), giving exactly 'value'; a constant stream samples nothing uniformly, so any "
                 "other share in [0, 1] (equity 0.5, tolerance 0.5) is another procedure: divergent, not failed",
                 "clauses": ["helper.equity"], "ruling": "R6"},
    "BadArgument": {"description": "an invalid parameter throws", "clauses": ["helper.equity-errors"], "ruling": None},
    "RandomOutOfRange": {"description": "a random() result outside [0,1) throws", "clauses": ["helper.equity-errors"], "ruling": "R6"},
    "NoDraw": {"description": "with no opponents equity returns 1 without calling random (R6; the runner counts the calls: "
               "random of kind counted): a call is another procedure, divergent", "clauses": ["helper.equity"], "ruling": "R6"},
    "RandomOmitted": {"description": "random omitted: JavaScript's equity takes Math.random (R41); with no opponents it is "
                      "never called, so the share is exactly 1; a refusal is R41's other option (random required): "
                      "divergent", "clauses": ["helper.equity"], "ruling": "R41"},
}

SPOTS = [
    ("river-ak-high", "Ah Kh", "2c 7d 9h Js Qd", 1), ("river-set", "9c 9d", "2c 7d 9h Js Qd", 1),
    ("river-nuts", "Ah Kh", "Qh Jh Th 2c 3d", 1), ("river-board-plays", "2c 3d", "As Ks Qs Js Ts", 1),
    ("river-pair-two-opponents", "7c 7d", "2c 8d 9h Js Qd", 2), ("river-wheel-draw-done", "Ah 2h", "3c 4d 5s Kh Qc", 2),
    ("turn-flush-draw", "Ah Kh", "2h 7h 9c Js", 1), ("turn-overpair", "Qc Qd", "2c 7d 9h Js", 1),
    ("flop-ak-suited", "Ah Kh", "2c 7d 9h", 1),
    # The board plays: every opponent ties, each iteration's share is 1/3 (not 1/2).
    ("river-board-plays-three-ways", "2c 3d", "As Ks Qs Js Ts", 2),
]
STREAMS = [("preflop-aa-one", "Ah As", "", 1, 11), ("preflop-72-eight", "7c 2d", "", 8, 12),
           ("flop-two", "Kd Qd", "Jd Td 2c", 2, 13), ("river-three", "9c 9d", "2c 7d 9h Js Qd", 3, 14)]
# One iteration: the least positive integer the contract allows.
ONE_ITERATION = ("one-iteration", "Ah Kh", "2c 7d 9h", 1, 15)
BAD = [
    ("one-hole-card", {"hole": ["Ah"], "board": [], "opponents": 1, "iterations": 10}, "holeCards"),
    ("duplicate-hole", {"hole": ["Ah", "Ah"], "board": [], "opponents": 1, "iterations": 10}, "holeCards"),
    ("board-repeats-hole", {"hole": ["Ah", "Kd"], "board": ["Ah", "2c", "3d"], "opponents": 1, "iterations": 10}, "board"),
    ("six-board-cards", {"hole": ["Ah", "Kd"], "board": ["2c", "3c", "4c", "5c", "6c", "7c"], "opponents": 1, "iterations": 10}, "board"),
    ("malformed-card", {"hole": ["Ah", "1d"], "board": [], "opponents": 1, "iterations": 10}, "holeCards"),
    ("nine-opponents", {"hole": ["Ah", "Kd"], "board": [], "opponents": 9, "iterations": 10}, "opponents"),
    ("negative-opponents", {"hole": ["Ah", "Kd"], "board": [], "opponents": -1, "iterations": 10}, "opponents"),
    ("fractional-opponents", {"hole": ["Ah", "Kd"], "board": [], "opponents": 1.5, "iterations": 10}, "opponents"),
    ("hole-not-an-array", {"hole": "AhKd", "board": [], "opponents": 1, "iterations": 10}, "holeCards"),
    ("board-an-object", {"hole": ["Ah", "Kd"], "board": {"flop": ["2c", "3d", "4h"]}, "opponents": 1, "iterations": 10}, "board"),
    ("opponents-a-string", {"hole": ["Ah", "Kd"], "board": [], "opponents": "1", "iterations": 10}, "opponents"),
    ("iterations-null", {"hole": ["Ah", "Kd"], "board": [], "opponents": 1, "iterations": None}, "iterations"),
    ("zero-iterations", {"hole": ["Ah", "Kd"], "board": [], "opponents": 1, "iterations": 0}, "iterations"),
    ("fractional-iterations", {"hole": ["Ah", "Kd"], "board": [], "opponents": 1, "iterations": 2.5}, "iterations"),
    ("random-not-a-function", {"hole": ["Ah", "Kd"], "board": [], "opponents": 1, "iterations": 10,
                               "random": {"kind": "value", "value": "not a function"}}, "random"),
    # Checked before the answer needs no draw: with no opponents too (R6 returns 1 without calling random).
    ("random-not-a-function-no-opponents", {"hole": ["Ah", "Kd"], "board": [], "opponents": 0, "iterations": 10,
                                            "random": {"kind": "value", "value": "not a function"}}, "random"),
]
# random() results outside [0,1): 1, below 0, and a numeric string (a number in range only by coercion).
OUT_OF_RANGE = [("random-returns-one", 1, "random() returning 1 throws"),
                ("random-returns-negative", -0.5, "random() returning -0.5 throws"),
                ("random-returns-numeric-string", "0.5", "random() returning the string '0.5' throws (not a number)")]


def generate() -> list[dict]:
    tests = []
    for slug, hole, board, opponents in SPOTS:
        exact = exact_equity(hole.split(), board.split(), opponents)
        tolerance = max(Z * math.sqrt(exact["variance"] / ITERATIONS), FLOOR)
        tests.append(make_test(
            NOTES, f"equity.exact.{slug}", f"{hole} on [{board}] vs {opponents}: exact by enumeration", ["helper.equity"],
            {"hole": hole.split(), "board": board.split(), "opponents": opponents, "iterations": ITERATIONS,
             "random": {"kind": "mulberry32", "seed": len(tests) + 1}},
            {"equity": exact["equity"], "variance": exact["variance"], "tolerance": tolerance}, ["Statistical"],
        ))
    tests.append(make_test(NOTES, "equity.no-opponents", "opponents 0 gives 1", ["helper.equity"],
                           {"hole": ["2c", "7d"], "board": [], "opponents": 0, "iterations": 50,
                            "random": {"kind": "mulberry32", "seed": 5}}, {"equity": 1.0, "variance": 0.0, "tolerance": 0.0},
                           ["NoOpponents"]))
    for slug, hole, board, opponents, seed in STREAMS:
        tests.append(make_test(NOTES, f"equity.stream.{slug}", f"{hole} [{board}] vs {opponents}, 300 iterations, mulberry32({seed})",
                               ["helper.equity"], {"hole": hole.split(), "board": board.split(), "opponents": opponents,
                                                   "iterations": 300, "random": {"kind": "mulberry32", "seed": seed}},
                               stream_expected(hole.split(), board.split(), opponents, 300, seed), ["ExactStream"]))
    slug, hole, board, opponents, seed = ONE_ITERATION
    random = {"kind": "mulberry32", "seed": seed}
    tests.append(make_test(NOTES, f"equity.stream.{slug}", f"{hole} [{board}] vs {opponents}, 1 iteration, mulberry32({seed})",
                           ["helper.equity"], {"hole": hole.split(), "board": board.split(), "opponents": opponents,
                                               "iterations": 1, "random": random},
                           stream_expected(hole.split(), board.split(), opponents, 1, seed), ["ExactStream"]))
    zero = {"hole": ["Ah", "Kh"], "board": ["2c", "7d", "9h"], "opponents": 1, "iterations": 300,
            "random": {"kind": "constant", "value": 0}}
    value = equity(zero["hole"], zero["board"], zero["opponents"], zero["iterations"], random_argument(zero["random"]))
    tests.append(make_test(NOTES, "equity.stream.random-always-zero", "random() always 0 (a valid draw): a share in [0, 1]",
                           ["helper.equity"], zero, {"value": value, "equity": 0.5, "tolerance": 0.5}, ["ZeroDraw"]))
    for slug, args, field in BAD:
        args = {"random": {"kind": "mulberry32", "seed": 1}, **args}
        refused_by_reference(args, field)
        tests.append(make_test(NOTES, f"equity.error.{slug}", f"equity throws ({field})", ["helper.equity-errors"],
                               args, {"error": field}, ["BadArgument"], result="invalid"))
    tests += random_use_tests()
    for slug, value, title in OUT_OF_RANGE:
        tests.append(make_test(NOTES, f"equity.error.{slug}", title, ["helper.equity-errors"],
                               {"hole": ["Ah", "Kd"], "board": [], "opponents": 1, "iterations": 10,
                                "random": {"kind": "constant", "value": value}}, {"error": "random"}, ["RandomOutOfRange"]))
    return tests


def random_use_tests() -> list[dict]:
    """How equity uses `random` with no opponents (docs/mutation.md: an engine drawing anyway, or one
    refusing an omitted random, gives the same 1): R6's no calls, R41's default."""
    counted = {"hole": ["2c", "7d"], "board": ["Ah"], "opponents": 0, "iterations": 50, "random": {"kind": "counted", "seed": 5}}
    omitted = {"hole": ["2c", "7d"], "board": [], "opponents": 0, "iterations": 50, "random": {"kind": "omitted"}}
    one = {"equity": 1.0, "variance": 0.0, "tolerance": 0.0}
    return [make_test(NOTES, "equity.no-opponents.no-draw", "opponents 0: 1, and random never called (R6)", ["helper.equity"],
                      counted, dict(one, **{k: v for k, v in run_equity(counted).items() if k == "calls"}), ["NoDraw"]),
            make_test(NOTES, "equity.no-opponents.random-omitted", "random omitted, opponents 0: 1 (R41)", ["helper.equity"],
                      omitted, dict(one, equity=run_equity(omitted)["equity"]), ["RandomOmitted"])]


def refused_by_reference(args: dict, field: str) -> None:
    """An error vector's premise, checked on the reference: it throws naming ``field``."""
    try:
        equity(args["hole"], args["board"], args["opponents"], args["iterations"], random_argument(args["random"]))
    except EquityError as exc:
        if exc.field.split("[")[0] != field:
            raise AssertionError(f"the reference refuses {args!r} naming {exc.field!r}, not {field!r}") from exc
        return
    raise AssertionError(f"the reference accepts equity({args!r})")


def stream_expected(hole: list, board: list, opponents: int, iterations: int, seed: int) -> dict:
    """An ExactStream vector's expectation: the stream's exact ``value`` (R6), and what any sampling
    procedure meets: ``equity`` exact by enumeration where that is quick, else the reference's
    estimate from REFERENCE_ITERATIONS draws of another stream; ``tolerance`` Z standard errors of
    both, with a share's variance bounded by p(1-p) (a share lies in [0, 1])."""
    value = equity(hole, board, opponents, iterations, mulberry32(seed))
    try:
        p, estimate_variance = exact_equity(hole, board, opponents)["equity"], 0.0
    except EquityError:
        p = equity(hole, board, opponents, REFERENCE_ITERATIONS, mulberry32(seed ^ 0x5EED))
        estimate_variance = 1 / REFERENCE_ITERATIONS
    bound = p * (1 - p)
    tolerance = max(Z * math.sqrt(bound / iterations + bound * estimate_variance), FLOOR)
    return {"value": value, "equity": p, "tolerance": tolerance}
