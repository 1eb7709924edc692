"""A failure's input in readable form and its reproduction (issue #13, item 1).

A JavaScript engine's reproduction is a self-contained script: the engine's files by path, the
suite's own vector driver (engine_drivers.DRIVER_JS, so the game is driven exactly as it was
certified), the vector's input and the first divergence. It runs under node (``node FILE.js``)
and under the suite's QuickJS (``holdem-cert repro FILE.js``), prints the expected and the
actual value at the divergent step and exits 1 while the engine still diverges there.
A ``--cmd`` engine's reproduction (any language, issue #36 item 2) is a JSON file holding the
vector (its input and expected outcome), the reference's expected trajectory, the first divergence
and the command that failed: ``holdem-cert repro FILE.json --cmd "COMMAND"`` replays it against
COMMAND (:func:`replay_command`), prints the expected and actual value at the first divergence
and exits 1 while they differ. It never runs a command by itself: people share these files.
"""
from __future__ import annotations

import json
import re
import shlex
import subprocess
from importlib import resources
from pathlib import Path

from reference import adapter

from conformance.bots.bot_cert import state_file, state_file_name
from conformance.harness.runner import ENGINE_PATH
from conformance.judge.engine_cert import FUZZ_KINDS
from conformance.judge.engine_drivers import DRIVER_JS, CommandDriver, EngineLoadError
from conformance.judge.family_judges import judge
from conformance.judge.trajectory import divergence_offset
from conformance.judge.verdicts import Report
from conformance.outfiles import write_text
from conformance.resources import javascript
from conformance.vectors.gamespec import GAME_FAMILIES
from .formats import printable

# The reproduction script's fixed parts before and after the driver (js_script); they are written
# into every script as they are, so they carry no header of their own.
REPRO_LOAD_JS = javascript(__package__, "repro_load.js")
REPRO_CHECK_JS = javascript(__package__, "repro_check.js")
REPRO_BATCH_JS = resources.files(__package__) / "repro_batch.js"  # run_batch's node program
REPRO_DIR = "repro"
BUNDLED_NAME = "bundled reference/js/poker-engine.js"  # engine_choice names the bundled engine so
# The line of a reproduction script naming the files to load, read back by `holdem-cert repro`.
FILES_LINE = re.compile(r"^const ENGINE_FILES = (\[.*\]);$", re.M)
ADAPTER_LINE = re.compile(r"^const HAS_ADAPTER = (true|false);$", re.M)  # the last file is an adapter


DEAL_ORDER = ("each deck is the hand's cards from the top: one card to each seat clockwise from the seat "
              "left of the button, twice; then a burn, the flop, a burn, the turn, a burn, the river "
              "(the contract, Rules)")


def _first_hand(seats: list, deck: list) -> dict:
    """Hand 1's hole cards by seat and its board (the first button is seat 0, docs/engine-api.md)."""
    n = len(seats)
    order = [(1 + k) % n for k in range(n)]
    holes = {f"seat {s} ({seats[s]})": [deck[i], deck[n + i]] for i, s in enumerate(order) if n + i < len(deck)}
    rest = deck[2 * n:]
    board = [c for i, c in enumerate(rest[:8]) if i not in (0, 4, 6)]
    return {"hole cards": {k: " ".join(v) for k, v in holes.items()}, "board (if dealt)": " ".join(board)}


def readable_input(family: str, vector_input: dict) -> dict:
    """A game vector's input as a person reads it: seats, stacks, blinds, button, the pinned deck
    of each hand (and hand 1's cards by seat) and the answers; other families' inputs are short."""
    if family not in GAME_FAMILIES or not isinstance(vector_input.get("game"), dict):
        return dict(vector_input)
    game = vector_input["game"]
    options = dict(game.get("options") or {})
    seats = game.get("seats") if isinstance(game.get("seats"), list) else []
    decks = options.pop("decks", None) or {}
    out = {"seats": {f"seat {k}": s for k, s in enumerate(seats)},
           "stacks": options.pop("stacks", "10000 each (the default)"),
           "blinds": options.pop("blindSchedule", "the default schedule"),
           "button": f"seat 0 ({seats[0] if seats else '?'}) in hand 1, then the next surviving seat"}
    if decks:
        out["decks"] = {f"hand {n}": " ".join(map(str, cards)) for n, cards in decks.items()}
        out["deal order"] = DEAL_ORDER
        if isinstance(decks.get("1"), list) and seats:
            out["hand 1"] = _first_hand(seats, decks["1"])
    if options:
        out["options"] = options
    for key in ("controllers", "steps"):
        where = game if key == "controllers" else vector_input
        if key in where:
            out[key] = where[key]
    if "script" in vector_input:
        out["answers"] = vector_input["script"]
    if "strategies" in vector_input:
        out["strategies"] = {f"seat {k}": s for k, s in enumerate(vector_input["strategies"])}
    out.update((k, v) for k, v in vector_input.items() if k not in ("game", "script", "strategies", "steps"))
    return out


def js_script(files: list[str], has_adapter: bool, family: str, test: dict, first: dict | None, message: str) -> str:
    """The reproduction script of one failed vector (see the module's docstring)."""
    data = json.dumps
    return f"""// Reproduction of {test['id']} ({family}), written by holdem-cert.
// Run:  node THIS_FILE.js            (node loads the engine files below by path)
//   or  holdem-cert repro THIS_FILE.js  (the same under the suite's QuickJS)
// It plays the vector's game on the engine with the suite's own driver, then prints the
// expected (reference) and actual (engine) value at the first divergence; exit 1 while they differ.
// The failure: {printable(' '.join(message.split())[:400])}
'use strict';
const ENGINE_FILES = {data(files)};
const HAS_ADAPTER = {data(has_adapter)};
const FAMILY = {data(family)};
const INPUT = {data(test['input'])};
const FIRST = {data(first)};
const EXPECTED = {data(test.get('expected') if first is None else None)};
const OFFSET = {divergence_offset(family, test['input'])};

""" + REPRO_LOAD_JS + f"{DRIVER_JS.strip()}();\n" + REPRO_CHECK_JS


REPRODUCTION = "holdem-cert --cmd reproduction"  # a --cmd reproduction file's "format"


def expected_trajectory(family: str, test: dict) -> object:
    """What the reference answers for a game vector (reference.adapter, over the protocol's shapes:
    every decision state, action and record); a hand vector's expected outcome is its trajectory,
    another family's its whole outcome (``test["expected"]``)."""
    if family not in GAME_FAMILIES:
        return test.get("expected")
    return adapter.encode(adapter.FAMILIES[family](adapter.decode(test["input"])))


def cmd_repro(command: str, family: str, test: dict, first: dict | None, message: str) -> dict:
    """A --cmd failure's reproduction (see the module's text) and how to replay it: the report carries
    its ``data``; the file adds the expected trajectory (command_file_text), which for a whole
    tournament is megabytes, so the JSON report and the HTML page do not repeat it."""
    data = {"format": REPRODUCTION, "version": 1, "id": test["id"], "family": family, "failedCommand": command,
            "run": None, "message": message, "first": first, "test": test}
    return {"kind": "command", "command": command, "data": data}


def command_file_text(data: dict) -> str:
    """A --cmd reproduction file: its ``data`` and the reference's expected trajectory."""
    full = {**data, "expectedTrajectory": expected_trajectory(data["family"], data["test"])}
    return printable(json.dumps(full, indent=1, ensure_ascii=False)) + "\n"


def replay_command(data: dict, command: str, timeout_ms: float = 10_000) -> tuple[list[str], bool]:
    """Replay a --cmd reproduction's vector against ``command`` and judge it as the certifier does:
    (the lines to print, whether the engine still diverges). The first divergence's expected and
    actual values (a game's step, or a helper's whole outcome) are printed."""
    family, test = data["family"], data["test"]
    driver = CommandDriver(command, timeout_ms=timeout_ms)  # ValueError: a command shlex cannot split, or none
    try:
        driver.start()
        run = driver.run(family, test)
    except EngineLoadError as exc:
        return [f"the engine could not be started: {exc}"], True
    finally:
        driver.close()
    lines = [f"replaying {data['id']} ({family}) against --cmd {command!r}"
             + (f" (it failed with --cmd {data['failedCommand']!r})" if data.get("failedCommand") != command else "")]
    if run.kind != "result":
        return lines + [f"DIVERGES: the engine {'skipped' if run.kind == 'skipped' else 'errored on'} the vector: "
                        f"{printable(str(run.value))[:2000]}"], True
    try:
        verdict = judge(family, test, run)
    except Exception as exc:  # noqa: BLE001 - the engine's answer may have any shape (engine_cert judges so too)
        return lines + [f"DIVERGES: the result is malformed and could not be judged ({type(exc).__name__}: {exc})"[:2000]], True
    first = verdict.first.as_json() if verdict.first is not None else None
    show = lambda value: printable(json.dumps(value, ensure_ascii=False))[:4000]  # noqa: E731
    if verdict.status != "failed":
        where = f" at {first['path']}" if first else ""
        return lines + [f"the same now{where}: the engine agrees with the reference ({verdict.status}"
                        + (f" on {', '.join(verdict.rulings)}" if verdict.rulings else "") + ")"], False
    if first is None:  # not a game: the whole outcome (the message says how it differs)
        return lines + [f"  expected (reference): {show(test.get('expected'))}", f"  actual (this engine): {show(run.value)}",
                        f"DIVERGES: {printable(verdict.message)[:2000]}"], True
    at = ", ".join(x for x in (f"hand {first['hand']}" if first["hand"] is not None else "",
                               f"decision {first['decision']}" if first["decision"] is not None else "") if x)
    return lines + [f"first divergence at {at or 'the end of the game'}: {first['path']} (breaks {first['clause']})",
                    f"  expected (reference): {show(first['expected'])}", f"  actual (this engine): {show(first['actual'])}",
                    "DIVERGES: the engine still leaves the rules here"], True


def attach(report: Report, subject: dict, tests: dict[str, list[dict]]) -> None:
    """Give each failed vector of ``report`` its readable input and its reproduction."""
    by_id = {t["id"]: (family, t) for family, ts in tests.items() for t in ts}
    source = subject.get("source")
    source = str(ENGINE_PATH) if source == BUNDLED_NAME else source
    files = [str(Path(f).resolve()) for f in (*(subject.get("preludes") or ()), source, subject.get("adapter")) if f]
    for case in report.with_status("failed"):
        first = case.first
        if case.id in by_id:
            family, test = by_id[case.id]
        elif case.vector is not None:  # a fuzz game, shrunk: a vector of its row's family (conformance.judge.fuzz)
            family, test = next(k.family for k in FUZZ_KINDS if k.group == case.group), case.vector
            first = case.vector_first
        else:
            continue
        case.input = readable_input(family, test["input"])
        if subject.get("driver") == "command":
            case.repro = cmd_repro(subject["command"], family, test, first, case.message)
        elif subject.get("driver") == "quickjs":
            case.repro = {"kind": "javascript",
                          "script": js_script(files, bool(subject.get("adapter")), family, test, first, case.message)}
        if case.repro:
            case.repro["file"] = file_name(case.id, case.repro["kind"])
            case.repro["run"] = _how_to_run(case.repro)
            if case.repro["kind"] == "command":
                case.repro["data"]["run"] = case.repro["run"][0]


def file_name(case_id: str, kind: str) -> str:
    return f"{REPRO_DIR}/{re.sub(r'[^A-Za-z0-9._-]', '_', case_id)}.{'js' if kind == 'javascript' else 'json'}"


def _how_to_run(repro: dict) -> list[str]:
    """The commands that rerun a reproduction, from the report's directory."""
    if repro["kind"] == "javascript":
        return [f"node {repro['file']}", f"holdem-cert repro {repro['file']}"]
    return [f"holdem-cert repro {repro['file']} --cmd {shlex.quote(repro['command'])}"]


def write_files(failures: list[dict], directory: Path) -> None:
    """Write the reproductions of a JSON report's ``failures`` under ``directory`` (their ``file``)."""
    for failure in failures:
        repro = failure.get("repro")
        if repro and ("script" in repro or "data" in repro):  # a cause's example may have none
            path = directory / repro["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text(path, repro["script"] if repro["kind"] == "javascript" else command_file_text(repro["data"]))


def written_line(failures: list[dict], directory: Path | None) -> str | None:
    """The terminal's line naming the folder the reproductions of ``failures`` went to (``directory``,
    the report's: beside the --json file), or saying that none were written (no report file)."""
    files = [f["repro"]["file"] for f in failures if f.get("repro")]
    if not files:
        return None
    if directory is None:
        return f"reproductions: {len(files)} not written (--json OUT writes them to repro/ beside OUT)"
    return (f"reproductions: {len(files)} written to {directory / REPRO_DIR}/, beside the report (e.g. "
            f"{directory / files[0]}; run each from {directory} as its report's repro.run says)")


def bot_repro(bot_file: Path, errors: dict, report_dir: Path) -> list[dict]:
    """Each battery error's first failing state as a file of the report (``repro/bot-...``) and the
    command that reruns the bot on it alone."""
    out = []
    for category, error in errors.items():
        file = f"{REPRO_DIR}/bot-{state_file_name(error['example'])}"
        out.append({"category": category, "state": error["example"], "file": file,
                    "run": f"holdem-cert bot {bot_file} --state {report_dir / file}"})
    return out


def write_bot_states(bots: list[dict], directory: Path) -> None:
    """Write the state files of ``bots``' reproductions (bot_repro) from their battery errors."""
    for bot in bots:
        errors = ((bot.get("report") or {}).get("battery") or {}).get("errors") or {}
        for repro in bot.get("repro") or []:
            path = directory / repro["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text(path, printable(json.dumps(state_file(repro["category"], errors[repro["category"]]), indent=2,
                                                  ensure_ascii=False)) + "\n")


def run_batch(node: str, scripts: list[Path], timeout_s: float = 1800) -> list[dict]:
    """Run the reproduction ``scripts`` in one node process (repro_batch.js), each in a fresh V8
    context as ``node FILE.js`` runs it alone: for each, in order, {"file", "exit", "stdout",
    "stderr"} with the exit status ``node FILE.js`` gives (one process per script costs a node
    start-up, about 40 ms, each: too slow for hundreds)."""
    with resources.as_file(REPRO_BATCH_JS) as program:
        done = subprocess.run([node, str(program)], input="".join(json.dumps({"file": str(p)}) + "\n" for p in scripts),
                              capture_output=True, text=True, timeout=timeout_s)
    if done.returncode != 0:
        raise RuntimeError(f"the reproduction batch stopped (exit {done.returncode}): {done.stderr[-2000:]}")
    out = [json.loads(line) for line in done.stdout.splitlines()]
    if len(out) != len(scripts):
        raise RuntimeError(f"the reproduction batch answered {len(out)} of {len(scripts)} scripts")
    return out
