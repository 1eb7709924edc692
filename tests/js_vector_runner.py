"""Run golden vector families against a JavaScript engine in an in-process QuickJS context.

Our own runner for our own trusted code (the bundled engine), used by tests/test_js_game.py: it
follows docs/INTERPRETING.md family by family, can make key order part of equality, mutates each
received hand state inside JS, and judges each vector ``passed``, ``failed`` or ``divergent``
(with the rulings). Values cross the boundary as JSON; JS values JSON cannot carry travel tagged
(``{"$js": "NaN"}``) and are decoded inside JS.

A ``JSEngine`` owns one ``quickjs.Context``: never share one across threads.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import quickjs

from conformance.vectors.gamespec import STRATEGIES
from conformance.vectors.library import load

ENGINE_PATH = Path(__file__).resolve().parent.parent / "reference" / "js" / "poker-engine.js"
FAMILIES = ("rng", "deck", "pots", "legality", "hands", "tournaments", "sng3v4")
MAX_DECISIONS = 100_000  # a tournament that runs longer than this is stuck

# Installed after the engine: one entry point taking and returning JSON text.
_SHIM = r"""
(function (g) {
  'use strict';
  const E = g.PokerEngine;
  const games = new Map();
  let next = 1;
  const SPECIAL = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, undefined: undefined };
  function decode(v) {
    if (Array.isArray(v)) return v.map(decode);
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === '$js') {
        return /^-?[0-9]+n$/.test(v.$js) ? BigInt(v.$js.slice(0, -1)) : SPECIAL[v.$js];  // a BigInt seed (R32)
      }
      const out = {};
      for (const k of keys) out[k] = decode(v[k]);
      return out;
    }
    return v;
  }
  const game = (req) => games.get(req.game);
  // The runner's mutation of a received state (INTERPRETING.md, hands).
  function mutate(s) {
    s.you.stack = -1;
    s.you.cards.push('Xx');
    s.pots.length = 0;
    s.board.push('Xx');
    s.seats[0].stack = -1;
    s.seats[0].name = 'mutated';
    s.seats.pop();
    s.actions.push({ id: 'x' });
    if (s.history.length > 0) { s.history[0].winners = []; s.history[0].board.length = 0; }
    s.history.push({ handNumber: -1 });
    s.tournament.blindSchedule[0][0] = -1;
    s.handNumber = -1;
  }
  const ops = {
    create: (req) => { const h = next++; games.set(h, E.create(decode(req.seats), decode(req.options))); return h; },
    drop: (req) => { games.delete(req.game); return null; },
    state: (req) => game(req).state(),
    stateMutated: (req) => {
      const s = game(req).state();
      const before = JSON.parse(JSON.stringify(s));
      mutate(s);
      return [before, game(req).state()];
    },
    act: (req) => game(req).act(decode(req.answer)),
    submit: (req) => game(req).submit(decode(req.answer)),
    timeout: (req) => game(req).timeout(),
    recover: (req) => game(req).recover(decode(req.seat)),
    over: (req) => game(req).over,
    standings: (req) => game(req).standings(),
    history: (req) => game(req).history(),
    log: (req) => game(req).log(),
    buildPots: (req) => E.buildPots(decode(req.contributions)),
    rng: (req) => { const r = E.rng(decode(req.seed)); const out = []; for (let i = 0; i < req.count; i++) out.push(r()); return out; },
    dealHand: (req) => E.dealHand(decode(req.seed), decode(req.handNumber)),
  };
  g.__runner = function (text) {
    const req = JSON.parse(text);
    try {
      const value = ops[req.op](req);
      return JSON.stringify(value === undefined ? { undefined: true } : { ok: value });
    } catch (e) {
      const o = e !== null && typeof e === 'object' ? e : {};
      return JSON.stringify({ threw: { name: String(o.name), message: String(o.message === undefined ? e : o.message),
        code: o.code === undefined ? null : o.code, field: o.field === undefined ? null : o.field } });
    }
  };
})(globalThis);
"""


class JSThrow(Exception):
    """The JavaScript call threw; ``code`` and ``field`` as the engine set them (or None)."""

    def __init__(self, info: dict):
        self.name, self.code, self.field = info["name"], info["code"], info["field"]
        super().__init__(f"{info['name']}: {info['message']}")


class JSEngine:
    """An engine source (the bundled one by default) loaded in its own QuickJS context."""

    def __init__(self, source: str | None = None):
        self.ctx = quickjs.Context()
        self.ctx.eval(ENGINE_PATH.read_text(encoding="utf-8") if source is None else source)
        self.ctx.eval(_SHIM)
        self._entry = self.ctx.get("__runner")

    def call(self, op: str, **args) -> object:
        reply = json.loads(self._entry(json.dumps({"op": op, **args})))
        if "threw" in reply:
            raise JSThrow(reply["threw"])
        return reply.get("ok")

    def create(self, spec: dict) -> "JSGame":
        """A game spec (docs/INTERPRETING.md, Encodings); the game's ``controllers`` become an option."""
        options = spec.get("options", {})  # as given: a vector of invalid options passes them on (R38)
        if "controllers" in spec:
            options = dict(options)
            options["controllers"] = spec["controllers"]
        return JSGame(self, self.call("create", seats=spec["seats"], options=options))


class JSGame:
    """``PokerEngine.create(...)`` seen from Python; answers are passed tagged (conformance.host.jsvalue)."""

    def __init__(self, engine: JSEngine, handle: int):
        self.engine, self.handle = engine, handle

    def _call(self, op: str, **args) -> object:
        return self.engine.call(op, game=self.handle, **args)

    def state(self) -> dict | None:
        return self._call("state")

    def state_mutated(self) -> tuple[dict, dict]:
        """A state as received, then the next one after the runner mutated the first."""
        before, after = self._call("stateMutated")
        return before, after

    def act(self, answer: object) -> dict:
        return self._call("act", answer=answer)

    def submit(self, answer: object) -> dict:
        return self._call("submit", answer=answer)

    def timeout(self) -> dict:
        return self._call("timeout")

    def recover(self, seat: object) -> None:
        self._call("recover", seat=seat)

    @property
    def over(self) -> bool:
        return self._call("over")

    def standings(self) -> list[dict]:
        return self._call("standings")

    def history(self) -> list[dict]:
        return self._call("history")

    def log(self) -> list[dict]:
        return self._call("log")

    def close(self) -> None:
        self._call("drop")


# -- judging ------------------------------------------------------------------------------
@dataclass
class Verdict:
    id: str
    verdict: str  # passed | failed | divergent
    detail: str = ""
    rulings: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


class _Mismatch(Exception):
    """A comparison failed; ``order_only`` when sorting showdown/winners by id would fix it (R14)."""

    def __init__(self, what: str, expected: object, actual: object, order_only: bool = False):
        self.order_only = order_only
        super().__init__(f"{what}: expected {_short(expected)}, got {_short(actual)}")


def _short(value: object, limit: int = 600) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def same(a: object, b: object, key_order: bool = False) -> bool:
    """Deep equality that tells true from 1 and (with ``key_order``) checks the order of keys."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        if (list(a) != list(b)) if key_order else (a.keys() != b.keys()):
            return False
        return all(same(a[k], b[k], key_order) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y, key_order) for x, y in zip(a, b))
    return a == b


def _sorted_results(value: object) -> object:
    """``value`` with every ``showdown`` and ``winners`` list sorted by id (R14's order-only rule)."""
    if isinstance(value, dict):
        return {k: (sorted(map(_sorted_results, v), key=lambda e: str(e.get("id")) if isinstance(e, dict) else "")
                    if k in ("showdown", "winners") and isinstance(v, list) else _sorted_results(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_sorted_results(v) for v in value]
    return value


class Judge:
    """Comparisons for one vector. ``key_order`` makes key order part of equality (our port's tests)."""

    def __init__(self, key_order: bool = False):
        self.key_order = key_order

    def expect(self, what: str, expected: object, actual: object) -> None:
        if same(expected, actual, self.key_order):
            return
        order_only = same(_sorted_results(expected), _sorted_results(actual), self.key_order)
        raise _Mismatch(what, expected, actual, order_only)

    def holds(self, what: str, condition: bool, detail: str) -> None:
        if not condition:
            raise _Mismatch(what, "true", detail)


def _verdict(test: dict, run) -> Verdict:
    """Run one vector; a mismatch fails a valid/invalid vector and is divergent on an acceptable one."""
    notes: list[str] = []
    try:
        run(notes)
    except _Mismatch as exc:
        if exc.order_only:
            return Verdict(test["id"], "divergent", str(exc), ("R14",), notes)
        if test["result"] == "acceptable":
            return Verdict(test["id"], "divergent", str(exc), tuple(test["rulings"]), notes)
        return Verdict(test["id"], "failed", str(exc), (), notes)
    except JSThrow as exc:  # an engine that throws where it should answer is not well formed
        return Verdict(test["id"], "failed", f"the engine threw {exc}", (), notes)
    return Verdict(test["id"], "passed", "", (), notes)


# -- families -------------------------------------------------------------------------------
def _rng(engine: JSEngine, test: dict, judge: Judge, notes: list) -> None:
    inp = test["input"]
    values = engine.call("rng", seed=inp["seed"], count=inp["count"])
    judge.expect("values", test["expected"]["values"], values)


def _deck(engine: JSEngine, test: dict, judge: Judge, notes: list) -> None:
    inp = test["input"]
    if "game" in inp:  # deck.seeded-game.*: the seeded game equals the game with its own dealHand pinned
        options = inp["game"].get("options") or {}  # null or no options: none given (R42)
        decks = {str(n): engine.call("dealHand", seed=options.get("seed", 0), handNumber=n)
                 for n in range(1, (options.get("maxHands") or 0) + 1)}
        ends = []
        for spec in (inp["game"], {**inp["game"], "options": {**options, "decks": decks}}):
            game = engine.create(spec)
            _play_out(game, inp["strategies"])
            ends.append({"log": game.log(), "standings": game.standings()})
            game.close()
        judge.expect("the game with its own dealHand decks pinned", ends[0], ends[1])
        return
    if "error" in test["expected"]:  # a bad handNumber (R2: the reference throws)
        try:
            deck = engine.call("dealHand", seed=inp["seed"], handNumber=inp["handNumber"])
        except JSThrow:
            return
        raise _Mismatch("dealHand", "a throw", deck)
    deck = engine.call("dealHand", seed=inp["seed"], handNumber=inp["handNumber"])
    again = engine.call("dealHand", seed=inp["seed"], handNumber=inp["handNumber"])
    canonical = sorted(test["expected"]["deck"])
    judge.holds("deck", isinstance(deck, list) and sorted(deck) == canonical and deck == again,
                f"not the same permutation of the 52 cards twice: {_short(deck)}")
    judge.expect("deck", test["expected"]["deck"], deck)


def _refused(test: dict, judge: Judge, run) -> bool:
    """An error vector (R38: invalid input to the engine API): the call must throw, naming the field
    the reference names. False when ``test`` is not an error vector."""
    if "error" not in test["expected"]:
        return False
    try:
        value = run()
    except JSThrow as exc:
        judge.expect("the refused field", test["expected"]["error"], exc.field)
        return True
    raise _Mismatch("a refusal", f"a throw naming {test['expected']['error']}", _short(value))


def _pots(engine: JSEngine, test: dict, judge: Judge, notes: list) -> None:
    if _refused(test, judge, lambda: engine.call("buildPots", contributions=test["input"]["contributions"])):
        return
    pots = engine.call("buildPots", contributions=test["input"]["contributions"])
    judge.expect("pots", test["expected"]["pots"], pots)


def _replay(engine: JSEngine, spec: dict, prefix: list) -> JSGame:
    game = engine.create(spec)
    for k, answer in enumerate(prefix):
        try:
            game.act(answer)
        except JSThrow as exc:
            raise _Mismatch(f"prefix[{k}]", answer, f"rejected: {exc}") from None
    return game


def _legality(engine: JSEngine, test: dict, judge: Judge, notes: list) -> None:
    inp, exp = test["input"], test["expected"]
    game = _replay(engine, inp["game"], inp["prefix"])
    judge.expect("state", inp["state"], game.state())
    if "accepted" in exp:
        try:
            record = game.act(inp["answer"])
        except JSThrow as exc:
            raise _Mismatch("act", exp["accepted"], f"rejected: {exc}") from None
        judge.expect("act", exp["accepted"], record)
        fallback = exp["accepted"]
    else:
        try:
            record = game.act(inp["answer"])
        except JSThrow as exc:
            if exc.code is not None and exc.code != exp["rejected"]:
                notes.append(f"rejection code {exc.code!r}, expected {exp['rejected']!r}")
            if exc.field is not None and exc.field != exp["field"]:
                notes.append(f"rejection field {exc.field!r}, expected {exp['field']!r}")
        else:
            raise _Mismatch("act", f"a rejection ({exp['rejected']})", record)
        judge.expect("state after the rejection", inp["state"], game.state())
        fallback = exp["fallback"]
    game.close()
    fresh = _replay(engine, inp["game"], inp["prefix"])
    judge.expect("submit(answer).action", fallback, fresh.submit(inp["answer"])["action"])
    fresh.close()


def _hands(engine: JSEngine, test: dict, judge: Judge, notes: list) -> None:
    inp, exp = test["input"], test["expected"]
    game = engine.create(inp["game"])
    for i, answer in enumerate(inp["script"]):
        received, again = game.state_mutated()
        judge.expect(f"decisions[{i}]", exp["decisions"][i], received)
        judge.expect(f"decisions[{i}] after mutating the previous copy", exp["decisions"][i], again)
        try:
            record = game.act(answer)
        except JSThrow as exc:
            raise _Mismatch(f"actions[{i}]", exp["actions"][i], f"rejected: {exc}") from None
        judge.expect(f"actions[{i}]", exp["actions"][i], record)
    judge.holds("over", game.over is True, "the game is not over after the script")
    judge.expect("history", exp["history"], game.history())
    judge.expect("chips", exp["chips"], [x["chips"] for x in game.standings()])
    game.close()


def _play_out(game: JSGame, strategy_names: list[str]) -> None:
    """Answer every decision with the strategy of the seat to act until the game is over."""
    strategies = [STRATEGIES[name] for name in strategy_names]
    for _ in range(MAX_DECISIONS):
        state = game.state()
        if state is None:
            return
        answer = strategies[state["you"]["seat"]](state)
        try:
            game.act(answer)
        except JSThrow as exc:
            raise _Mismatch(f"hand {state['handNumber']}", answer, f"rejected: {exc}") from None
    raise _Mismatch("decisions", f"at most {MAX_DECISIONS}", "more")


def _tournaments(engine: JSEngine, test: dict, judge: Judge, notes: list) -> None:
    inp, exp = test["input"], test["expected"]

    def play() -> list:
        game = engine.create(inp["game"])
        try:
            _play_out(game, inp["strategies"])
            return game.log()
        finally:
            game.close()

    if _refused(test, judge, play):
        return
    game = engine.create(inp["game"])
    _play_out(game, inp["strategies"])
    judge.expect("log", exp["log"], game.log())
    keys = ("id", "place", "chips", "eliminatedInHand")
    judge.expect("standings", exp["standings"], [{k: x[k] for k in keys} for x in game.standings()])
    game.close()


def sng3v4_step(game: JSGame, step: object) -> dict:
    """One step of an sng3v4 vector (INTERPRETING.md) applied to ``game``; its outcome as the vectors
    record it (a refusal's ``reason`` is the engine's message without the field prefix)."""
    if isinstance(step, dict) and "recover" in step:
        try:
            game.recover(step["recover"])
        except JSThrow as exc:
            return {"refused": exc.field, "seat": step["recover"], "reason": str(exc).split(": ", 2)[-1]}
        return {"recovered": step["recover"]}
    state = game.state()
    if step == {"timeout": True} or (isinstance(step, dict) and "atMs" in step and step["atMs"] >= state["timeLimitMs"]):
        return {"state": state, **game.timeout()}
    answer = step["answer"] if isinstance(step, dict) and "atMs" in step else step
    return {"state": state, **game.submit(answer)}


def _sng3v4(engine: JSEngine, test: dict, judge: Judge, notes: list) -> None:
    inp, exp = test["input"], test["expected"]
    spec = {**inp["game"], "options": {**inp["game"]["options"], "ruleset": "holdem-sng-3-v4"}}
    if _refused(test, judge, lambda: engine.create(spec).close()):  # a game v4's text rules out
        return
    game = engine.create(spec)
    for i, step in enumerate(inp["steps"]):
        judge.expect(f"steps[{i}]", exp["steps"][i], sng3v4_step(game, step))
    _play_out(game, inp["strategies"])
    judge.expect("log", exp["log"], game.log())
    keys = ("id", "name", "place", "chips", "eliminatedInHand", "timeouts", "autoFolded")
    judge.expect("standings", exp["standings"], [{k: x[k] for k in keys if k in x} for x in game.standings()])
    game.close()


_RUNNERS = {"rng": _rng, "deck": _deck, "pots": _pots, "legality": _legality, "hands": _hands,
            "tournaments": _tournaments, "sng3v4": _sng3v4}


def run_family(engine: JSEngine, family: str, *, key_order: bool = False) -> list[Verdict]:
    """Every vector of ``family`` against ``engine``, in file order."""
    runner = _RUNNERS[family]
    judge = Judge(key_order)
    return [_verdict(test, lambda notes, test=test: runner(engine, test, judge, notes)) for test in load(family)["tests"]]
