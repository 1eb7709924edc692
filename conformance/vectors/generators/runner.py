"""Family ``runner``: vectors for arena runners (harnesses), not engines.

Three kinds of test, told apart by their input (docs/INTERPRETING.md, ``runner``):

- ``roster``: a ``bots.json`` object and the files it names -> whether the roster is acceptable
  and which (entry id, field) pairs are at fault (:func:`conformance.harness.roster.lint_roster`);
- ``source``: one bot script -> whether it loads as a bot in a worker (the export's shape and
  name, :class:`conformance.host.worker.Worker`) and/or whether a static check must forbid it
  (:func:`conformance.harness.lint_static.lint_source`; its rule ids are informative);
- ``game``: a small tournament of tiny inline bots (:func:`conformance.harness.runner.run_tournament`)
  -> per-seat loading, error counts by category and termination, every decision's applied
  action and the standings. Each bot answers at once or never (an endless loop), so the outcome
  does not depend on the machine; wall times are measurements and never appear in a vector.
"""
from __future__ import annotations

import json
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conformance.harness.lint_static import lint_source
from conformance.harness.roster import HOUSE_LAB, HOUSE_PHRASE, lint_roster
from conformance.harness.runner import CATEGORIES, BotSpec, RunnerOptions, bundled_engine, run_tournament
from conformance.host.worker import Worker
from conformance.vectors.vectorfile import make_test

NOTES = {
    "RosterValid": {"description": "a roster that satisfies the Submission section: it must be accepted",
                    "clauses": ["submission.roster", "submission.id"], "ruling": None},
    "RosterId": {"description": "an id outside ^[a-z0-9][a-z0-9.-]*$ (the whole string: a trailing newline "
                                "does not end it) or containing '..'; its file is exactly bots/<id>.js, so "
                                "the id alone is at fault",
                 "clauses": ["submission.id"], "ruling": None},
    "RosterFile": {"description": "the file is not exactly bots/<id>.js or does not exist",
                   "clauses": ["submission.roster"], "ruling": None},
    "RosterBytes": {"description": "bytes is not the file's UTF-8 size including the final newline",
                    "clauses": ["submission.roster"], "ruling": None},
    "RosterHouse": {"description": f"a house sample (lab {HOUSE_LAB!r}) whose note does not say "
                                   f"{HOUSE_PHRASE!r}: the note is at fault",
                    "clauses": ["submission.roster"], "ruling": None},
    "RosterFields": {"description": "the roster's version is not 1, or an entry lacks a field of the contract's "
                                    "example (id, name, botName, lab, color, file, bytes, note)",
                     "clauses": ["submission.roster"], "ruling": None},
    "Export": {"description": "module.exports is act(state) or an object with a function act and an optional "
                              "string name; exports is module.exports before reassignment (the CommonJS shim)",
               "clauses": ["submission.exports"], "ruling": None},
    "NotABot": {"description": "the script does not leave a bot in module.exports (or does not parse as a "
                               "classic script): it does not load",
                "clauses": ["submission.exports"], "ruling": None},
    "Forbidden": {"description": "the script uses what the contract forbids (import, require, dynamic code, "
                                 "clocks, unseeded entropy, network, DOM, worker messaging, overwriting worker "
                                 "globals): a static check must reject it; the rule ids listed are ours, "
                                 "informative only",
                  "clauses": ["submission.self-contained"], "ruling": None},
    "Allowed": {"description": "the names of forbidden APIs appear only in comments, strings, property names "
                               "or the bot's own declarations, or the script uses what the contract provides "
                               "(Math.random, PokerEngine): a static check must not reject it",
                "clauses": ["submission.self-contained"], "ruling": None},
    "DecisionDeadline": {"description": "a bot loops forever in act: the decision is late (one error, the fallback)",
                         "clauses": ["timing.deadlines", "timing.fallback"], "ruling": None},
    "InitDeadline": {"description": "a bot loops forever while loading: initialisation misses its deadline",
                     "clauses": ["timing.deadlines"], "ruling": None},
    "LoadFailure": {"description": "a bot throws while loading: the worker is broken",
                    "clauses": ["timing.terminate"], "ruling": None},
    "Terminated": {"description": "the late or broken worker is terminated and never restarted: each later "
                                  "decision of its seat takes the fallback and counts one error in category "
                                  "'missing' (there is no answer)",
                   "clauses": ["timing.terminate", "timing.fallback"], "ruling": None},
    "HealthyAfterErrors": {"description": "a throw, a malformed answer and an engine-invalid action each count one "
                                          "error in its category but do not terminate the worker: its "
                                          "module-level memory carries on",
                           "clauses": ["timing.terminate", "timing.fallback"], "ruling": None},
    "WorkerPerSeat": {"description": "the same bot in several seats: each seat's worker has its own module-level "
                                     "memory, and PokerEngine is usable while the bot loads",
                      "clauses": ["timing.worker-per-seat"], "ruling": None},
    "SeatStreams": {"description": "Math.random is seeded before the bot loads and persists across decisions and "
                                   "hands; each seat's stream starts from the R21 state of botSeed and the seat",
                    "clauses": ["determinism.math-random", "timing.worker-per-seat"], "ruling": "R21"},
}

# ---- roster ------------------------------------------------------------------------------

AI_NOTE = "Plays a fixed calling strategy."
HOUSE_NOTE = f"House sample, {HOUSE_PHRASE}: checks when free, otherwise folds."
SOURCES = {
    "ascii": "module.exports = function act(state) {\n  return state.canCheck ? 'check' : 'fold';\n};\n",
    # Multi-byte UTF-8: 'é' is 2 bytes, '♠' 3, so bytes exceed characters by 3.
    "utf8": "// Café ♠\nmodule.exports = function act(state) {\n  return state.canCheck ? 'check' : 'call';\n};\n",
}


def entry(bot_id: str, source: str = "ascii", **fields) -> dict:
    """A complete roster entry for ``bots/<bot_id>.js`` holding ``SOURCES[source]`` (fields override)."""
    base = {"id": bot_id, "name": bot_id.title(), "botName": bot_id.title(), "lab": "Example lab",
            "color": "#2dd4bf", "file": f"bots/{bot_id}.js", "bytes": len(SOURCES[source].encode("utf-8")),
            "note": AI_NOTE}
    return {k: v for k, v in {**base, **fields}.items() if v is not None}


def roster_case(entries: list[dict], sources: dict[str, str], version: int = 1) -> dict:
    return {"roster": {"version": version, "bots": entries},
            "files": {path: SOURCES[name] for path, name in sources.items()}}


def one(bot_id: str, source: str = "ascii", path: str | None = None, **fields) -> dict:
    """A roster of one entry whose file (``path``, default its ``file``) holds ``SOURCES[source]``."""
    e = entry(bot_id, source, **fields)
    return roster_case([e], {path or e["file"]: source})


ROSTERS = [
    # slug, flag, comment, input
    ("roster-ok", "RosterValid", "an AI entry with a multi-byte file, ids with digits, dots and dashes, and a house "
     "sample", roster_case([entry("gpt-4.1-mini", "utf8"), entry("1bot"),
                            entry("check-fold", lab=HOUSE_LAB, note=HOUSE_NOTE)],
                           {"bots/gpt-4.1-mini.js": "utf8", "bots/1bot.js": "ascii", "bots/check-fold.js": "ascii"})),
    ("roster-id-uppercase", "RosterId", "an upper-case letter", one("Example")),
    ("roster-id-underscore", "RosterId", "an underscore", one("my_bot")),
    ("roster-id-leading-dash", "RosterId", "the first character must be a letter or digit", one("-bot")),
    ("roster-id-leading-dot", "RosterId", "the first character must be a letter or digit", one(".bot")),
    ("roster-id-double-dot", "RosterId", "'..' inside an otherwise well-formed id", one("a..b")),
    ("roster-id-trailing-newline", "RosterId", "a trailing newline (a '$' that matches before a final newline "
     "would accept it)", one("bot\n")),
    ("roster-file-other-bot", "RosterFile", "the file of another id (which exists)",
     roster_case([entry("alpha", file="bots/beta.js")], {"bots/beta.js": "ascii"})),
    ("roster-file-dotdot", "RosterFile", "a path through '..' that resolves to bots/<id>.js is still not that path",
     one("alpha", file="bots/../bots/alpha.js", path="bots/alpha.js")),
    ("roster-file-missing", "RosterFile", "the named file does not exist", roster_case([entry("alpha")], {})),
    ("roster-bytes-final-newline", "RosterBytes", "bytes leaves out the final newline",
     one("alpha", bytes=len(SOURCES["ascii"].encode("utf-8")) - 1)),
    ("roster-bytes-characters", "RosterBytes", "bytes counts characters, not UTF-8 bytes",
     one("alpha", "utf8", bytes=len(SOURCES["utf8"]))),
    ("roster-house-without-phrase", "RosterHouse", "a house sample's note must say it is not an AI-model entry",
     one("check-fold", lab=HOUSE_LAB, note="House sample: checks when free, otherwise folds.")),
    ("roster-missing-field", "RosterFields", "an entry without botName", one("alpha", botName=None)),
    ("roster-version-2", "RosterFields", "the roster version must be 1",
     roster_case([entry("alpha")], {"bots/alpha.js": "ascii"}, version=2)),
]


def lint_case(case: dict) -> dict:
    """``lint_roster`` on a temporary directory holding the case's ``bots.json`` and files."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "bots.json").write_text(json.dumps(case["roster"], indent=2) + "\n", encoding="utf-8")
        for path, text in case["files"].items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))
        report = lint_roster(root / "bots.json")
    problems = sorted({(p.entry_id, p.field) for p in report.errors}, key=lambda p: (p[0] or "", p[1]))
    return {"ok": report.ok, "problems": [{"id": i, "field": f} for i, f in problems]}


# ---- sources: exports and self-containment -----------------------------------------------

CONTRACT_FUNCTION = ("module.exports = function act(state) {\n"
                     "  return { type: state.canCheck ? 'check' : 'fold' };\n};\n")
CONTRACT_OBJECT = ("module.exports = {\n  name: 'Example',\n  act(state) {\n"
                   "    return state.canCheck ? 'check' : 'fold';\n  }\n};\n")
FOLD = "  return state.canCheck ? 'check' : 'fold';\n"

# Every source is checked statically; those with ``load`` True are also loaded in a worker.
SOURCE_CASES = [
    # slug, flags, comment, source, load
    ("export-function", ["Export"], "the contract's function export", CONTRACT_FUNCTION, True),
    ("export-arrow", ["Export"], "an arrow function is a function",
     "module.exports = (state) => (state.canCheck ? 'check' : 'fold');\n", True),
    ("export-object-named", ["Export"], "the contract's object export with a name", CONTRACT_OBJECT, True),
    ("export-object-unnamed", ["Export"], "name is optional",
     "module.exports = {\n  act(state) {\n" + FOLD + "  }\n};\n", True),
    ("export-exports-act", ["Export"], "exports.act on the shim's initial exports object",
     "exports.act = function act(state) {\n" + FOLD + "};\n", True),
    ("export-nothing", ["NotABot"], "a global function but no export",
     "function act(state) {\n" + FOLD + "}\n", True),
    ("export-act-not-function", ["NotABot"], "act is a string",
     "module.exports = { name: 'No act', act: 'fold' };\n", True),
    ("export-answer-string", ["NotABot"], "the export is an answer, not a bot", "module.exports = 'fold';\n", True),
    ("static-es-module", ["Forbidden", "NotABot"], "an ES-module export (no loader; a classic script does not "
     "parse it)",
     "export default function act(state) {\n" + FOLD + "}\n", True),
    ("static-import", ["Forbidden"], "an import statement",
     "import { helper } from './helper.js';\nmodule.exports = (state) => helper(state);\n", False),
    ("static-dynamic-import", ["Forbidden"], "import(...) at run time",
     "module.exports = function act(state) {\n  import('./book.js');\n" + FOLD + "};\n", False),
    ("static-require", ["Forbidden"], "require(...)",
     "const book = require('./book');\nmodule.exports = (state) => book(state);\n", False),
    ("static-eval", ["Forbidden"], "eval of code", "module.exports = function act(state) {\n"
     "  return eval(\"state.canCheck ? 'check' : 'fold'\");\n};\n", False),
    ("static-window-eval", ["Forbidden"], "eval reached through the global object",
     "const run = window.eval;\nmodule.exports = (state) => run('\"fold\"');\n", False),
    ("static-new-function", ["Forbidden"], "new Function", "const act = new Function('state', \"return 'fold';\");\n"
     "module.exports = act;\n", False),
    ("static-string-timer", ["Forbidden"], "setTimeout with code in a string",
     "setTimeout('poll()', 10);\nmodule.exports = (state) => 'fold';\n", False),
    ("static-date", ["Forbidden"], "the wall clock chooses the action", "module.exports = function act(state) {\n"
     "  return Date.now() % 2 === 0 && !state.canCheck ? 'call' : 'fold';\n};\n", False),
    ("static-performance", ["Forbidden"], "a high-resolution clock bounds the work",
     "module.exports = function act(state) {\n  const end = performance.now() + 50;\n"
     "  while (performance.now() < end) {}\n" + FOLD + "};\n", False),
    ("static-crypto", ["Forbidden"], "unseeded entropy", "module.exports = function act(state) {\n"
     "  const r = crypto.getRandomValues(new Uint32Array(1))[0];\n"
     "  return r % 2 === 0 && !state.canCheck ? 'call' : 'fold';\n};\n", False),
    ("static-fetch", ["Forbidden"], "network access", "fetch('https://example.com/book.json');\n"
     "module.exports = (state) => 'fold';\n", False),
    ("static-import-scripts", ["Forbidden"], "external code loaded into the worker",
     "importScripts('https://example.com/book.js');\nmodule.exports = (state) => 'fold';\n", False),
    ("static-dom", ["Forbidden"], "a DOM API", "module.exports = function act(state) {\n"
     "  document.title = String(state.handNumber);\n" + FOLD + "};\n", False),
    ("static-post-message", ["Forbidden"], "a protocol message of its own",
     "module.exports = function act(state) {\n  postMessage({ type: 'fold' });\n" + FOLD + "};\n", False),
    ("static-overwrite-math-random", ["Forbidden"], "overwriting a worker global",
     "Math.random = () => 0.5;\nmodule.exports = (state) => 'fold';\n", False),
    ("static-clean", ["Allowed"], "the contract's minimal complete bot",
     "'use strict';\n\nmodule.exports = {\n  name: 'Example Legal Bot',\n  act(state) {\n"
     "    if (state.canCheck) return { type: 'check' };\n    return { type: 'fold' };\n  }\n};\n", False),
    ("static-words-only", ["Allowed"], "forbidden names in comments and strings",
     "// No require, import, eval, fetch or Date here.\nconst NOTE = 'eval(fetch(Date.now()))';\n"
     "module.exports = function act(state) {\n"
     "  return NOTE.length > 0 && state.canCheck ? 'check' : 'fold';\n};\n", False),
    ("static-own-names", ["Allowed"], "a property and a local that share names with forbidden globals",
     "const table = { fetch: 1, Date: 2 };\nmodule.exports = function act(state) {\n"
     "  const crypto = table.fetch + table.Date;\n"
     "  return crypto > 2 && state.canCheck ? 'check' : 'fold';\n};\n", False),
    ("static-provided-globals", ["Allowed"], "Math.random and PokerEngine are provided",
     "module.exports = function act(state) {\n"
     "  const e = PokerEngine.equity(state.you.cards, state.board, 1, 50, Math.random);\n"
     "  if (state.canCheck) return 'check';\n  return e > 0.5 ? 'call' : 'fold';\n};\n", False),
]


def load_outcome(source: str) -> dict:
    """Load ``source`` as a bot in a fresh worker, the engine helper first."""
    with Worker() as worker:
        out = worker.start(bundled_engine(), source, 0, mode="bot")
    if not out.ok:
        return {"loads": False, "shape": None, "name": None}
    return {"loads": True, "shape": out.answer["shape"], "name": out.answer["name"]}


def static_outcome(source: str) -> dict:
    rules = sorted({f.rule for f in lint_source(source) if f.severity == "error"})
    return {"forbidden": bool(rules), "rules": rules}


# ---- tournaments -------------------------------------------------------------------------

DEADLINES = {"initMs": 1000, "decisionMs": 1000}
CALLER = "module.exports = function act(state) {\n  return state.canCheck ? 'check' : 'call';\n};\n"
# Raising reveals a number: at most one raise per street (when the current bet is no more than the big blind).
RAISE_TO = ("function raiseTo(state, extra) {\n"
            "  if (state.minRaiseTo === null || state.currentBet > state.blinds[1]) {\n"
            "    return state.canCheck ? 'check' : 'call';\n  }\n"
            "  return { type: 'raise', amount: Math.min(state.minRaiseTo + extra, state.maxRaiseTo) };\n}\n")
BOTS = {
    "caller": CALLER,
    "counter": ("'use strict';\n// Counts its own decisions in module-level memory and raises by the count.\n"
                "// Reading PokerEngine while loading throws unless the helper was loaded first.\n"
                "const HELPER = typeof PokerEngine.evaluate === 'function';\nlet decisions = 0;\n" + RAISE_TO +
                "module.exports = {\n  name: 'Counter',\n  act(state) {\n    decisions += 1;\n"
                "    return HELPER ? raiseTo(state, decisions) : 'fold';\n  }\n};\n"),
    "stopper": ("'use strict';\n// Answers its first two decisions, then never answers again.\nlet decisions = 0;\n"
                "module.exports = function act(state) {\n  decisions += 1;\n"
                "  if (decisions < 3) return state.canCheck ? 'check' : 'call';\n  for (;;) {}\n};\n"),
    "load-loop": "'use strict';\n// Never finishes loading.\nfor (;;) {}\n",
    "load-throw": "'use strict';\n// Breaks while loading, before exporting anything.\nthrow new Error('broken');\n",
    "erratic": ("'use strict';\n// Throws, then answers a number, then raises above maxRaiseTo; afterwards raises by\n"
                "// its decision count, which shows that its memory survived the errors.\nlet decisions = 0;\n"
                + RAISE_TO + "module.exports = function act(state) {\n  decisions += 1;\n"
                "  if (decisions === 1) throw new Error('first decision');\n  if (decisions === 2) return 42;\n"
                "  if (decisions === 3) return { type: 'raise', amount: state.maxRaiseTo + 1 };\n"
                "  return raiseTo(state, decisions);\n};\n"),
    "random": ("'use strict';\n// Draws from Math.random while loading and at every decision; each raise adds\n"
               "// the previous draw, so the first raise shows the draw made while loading.\n"
               "let draw = Math.floor(Math.random() * 100);\n" + RAISE_TO +
               "module.exports = function act(state) {\n  const extra = draw;\n"
               "  draw = Math.floor(Math.random() * 100);\n  return raiseTo(state, extra);\n};\n"),
}

GAMES = [
    # slug, flags, comment, seats (bot per seat), deck seed, botSeed, maxHands
    ("act-loop", ["DecisionDeadline", "Terminated"], "a bot answers twice, then loops forever in act",
     ["stopper", "caller", "caller"], 3, 1, 3),
    ("load-loop", ["InitDeadline", "Terminated"], "a bot loops forever while loading",
     ["caller", "load-loop", "caller"], 4, 1, 2),
    ("load-throw", ["LoadFailure", "Terminated"], "a bot throws while loading",
     ["caller", "caller", "load-throw"], 5, 1, 2),
    ("errors-keep-worker", ["HealthyAfterErrors"], "a bot throws, answers 42 and raises above maxRaiseTo, then "
     "plays on with its memory intact", ["erratic", "caller", "caller"], 6, 1, 3),
    ("worker-per-seat", ["WorkerPerSeat"], "one counting bot in two seats: each seat counts only its own decisions",
     ["counter", "caller", "counter"], 7, 1, 3),
    ("math-random-seats", ["SeatStreams"], "one Math.random bot in two seats, botSeed 42",
     ["random", "random", "caller"], 8, 42, 3),
    ("math-random-heads-up", ["SeatStreams"], "the Math.random bot heads-up in seat 1, botSeed 4294967295",
     ["caller", "random"], 9, 2**32 - 1, 4),
]


def game_input(seats: list[str], seed: int, bot_seed: int, max_hands: int) -> dict:
    return {"game": {"seats": seats, "options": {"seed": seed, "maxHands": max_hands}},
            "bots": {name: BOTS[name] for name in sorted(set(seats))},
            "botSeed": bot_seed, "deadlines": dict(DEADLINES)}


def play(spec: dict) -> dict:
    """Run the tournament of a ``game`` input and describe its outcome (no timings)."""
    seats = spec["game"]["seats"]
    options = spec["game"]["options"]
    result = run_tournament(
        [BotSpec(name, spec["bots"][name]) for name in seats], seed=options["seed"], bot_seed=spec["botSeed"],
        options=RunnerOptions(init_ms=spec["deadlines"]["initMs"], decision_ms=spec["deadlines"]["decisionMs"],
                              tournament={"max_hands": options["maxHands"]}))
    return {
        "seats": [{"id": s.id, "loaded": s.init["kind"] == "ok", "decisions": s.decisions,
                   "errors": {c: s.errors[c] for c in CATEGORIES},
                   "terminated": None if s.terminated is None else
                   "load" if s.terminated["decision"] is None else s.terminated["decision"]}
                  for s in result.seats],
        "decisions": [{"handNumber": d.hand_number, "error": d.error, "action": d.action} for d in result.decisions],
        "standings": [{k: x[k] for k in ("id", "place", "chips", "eliminatedInHand")} for x in result.standings],
    }


def generate() -> list[dict]:
    tests = []
    for slug, flag, comment, case in ROSTERS:
        expected = lint_case(case)
        tests.append(make_test(NOTES, f"runner.{slug}", comment, [], case, expected, [flag],
                               None if expected["ok"] else "invalid"))
    # Worker processes, in parallel: the deadline waits overlap (every bot is instant or endless).
    with ThreadPoolExecutor(max_workers=4) as pool:
        specs = [game_input(seats, seed, bot_seed, max_hands) for _, _, _, seats, seed, bot_seed, max_hands in GAMES]
        games = [pool.submit(play, spec) for spec in specs]
        loads = [pool.submit(load_outcome, source) if load else None for _, _, _, source, load in SOURCE_CASES]
        for (slug, flags, comment, source, _), load in zip(SOURCE_CASES, loads):
            expected = {**(load.result() if load else {}), **static_outcome(source)}
            rejected = expected["forbidden"] or not expected.get("loads", True)
            tests.append(make_test(NOTES, f"runner.{slug}", comment, [], {"source": source}, expected, flags,
                                   "invalid" if rejected else None))
        for (slug, flags, comment, *_), spec, game in zip(GAMES, specs, games):
            tests.append(make_test(NOTES, f"runner.{slug}", comment, [], spec, game.result(), flags))
    return tests
