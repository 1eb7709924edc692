"""The certification's side of ``holdem-cert mutate``: one Python process per Stryker test runner.

Stryker's test runner of ours (``stryker_plugins.js``) starts ``python -m conformance.mutate.session``
and speaks JSON lines with it, one answer per request:

- ``{"op": "init", "engine": PATH}``: the instrumented engine (Stryker's sandbox copy of ENGINE.js,
  every mutant switchable) is loaded on the node host with the plan's preludes and adapter, and the
  tests are chosen: the smoke tier, the golden vectors, the fresh tests and the fuzz games of the
  profiles the engine declares, exactly as ``holdem-cert engine`` chooses them for the ORIGINAL
  engine (the fresh and fuzz seeds are the original's, fixed in the plan by the command);
- ``{"op": "dryRun"}``: every test in the certification's order with no mutant active, each with
  ``__stryker__.currentTestId`` set, so that the instrumented code records which mutants each test
  reaches (Stryker's per-test coverage); a test the original engine does not pass cannot kill a
  mutant and is left out (said in ``left``);
- ``{"op": "mutantRun", "mutant": ID, "tests": [IDS] | null, "static": BOOL, "hitLimit": N | null,
  "bail": BOOL, "location": ..., "replacement": TEXT}``: the tests (those that reach the mutant; null:
  all of them) with the mutant active, in the certification's order (the five-card digest last),
  stopping at the first one the certification fails.

Where a mutant runs: on the instrumented build, switched on at run time, except where the build's
switches cost more than a reload (:meth:`Session._fresh_engine`): a *static* mutant (reached while
the engine loads, so every test runs, from a fresh load) and the five-card digest (every five-card
hand: tens of times slower instrumented) run on a fresh engine of the original's text with the
mutant's replacement at its location, Stryker's own description of the mutant.

A test kills a mutant when the certification's verdict on it is "failed" (a skip or a proven
divergence is not a failure of certification, docs/INTERPRETING.md). A test with no answer within
its time limit, or whose mutant ran more than Stryker's hit limit (a hundred times its dry run's
hits: an endless loop), ends the run as ``timeout``. The engine always runs in the node host's own
process (conformance/host/node_worker.py), never in this one or in Stryker's.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field

from conformance.judge import cert_profiles
from conformance.judge.coverage import SEPARATOR
from conformance.judge.engine_cert import FUZZ_KINDS, Runner, load_tests
from conformance.judge.engine_drivers import EngineLoadError, QuickJSDriver, Run, is_digest
from conformance.judge.smoke import SMOKE_MODULE, smoke_tests
from conformance.mutate.score import DIVERGED

PLAN_ENV = "HOLDEM_MUTATE_PLAN"  # the plan's JSON file, written by the command for every session
# Beside the plan: what the command says of the dry run: the tests left out (the original does not pass
# them), or why the session could not start or make the dry run (Stryker says only that it failed).
DRY_RUN_FILE = "dry-run.json"
LOAD_TEST = "smoke.load"  # the engine loads: the test that kills a mutant breaking the load
NAMESPACE = "__stryker__"  # Stryker's global (its instrumenter's default)
# The names of the helpers Stryker's instrumenter puts at the head of the file (its util/syntax-helpers.js,
# fixed in the pinned version; tests/test_mutate.py checks them in an instrumented engine).
NAMESPACE_HELPER, COVER_HELPER = "stryNS_9fa48", "stryCov_9fa48"

# Run in the engine's realm (evalFn) before each test: Stryker's state. ``quiet``: a mutant's run needs no
# coverage, so the helper that counts every covered mutant at every hit is made a no-op (the instrumented
# engine then runs several times faster; the dry run keeps it, its counts are the per-test coverage).
_SET = ("function (state) { var ns = globalThis." + NAMESPACE + " || (globalThis." + NAMESPACE + " = {}); "
        "for (var k in state) if (k !== 'quiet') ns[k] = state[k] === null ? undefined : state[k]; "
        "if (state.quiet && typeof globalThis." + COVER_HELPER + " === 'function') globalThis." + COVER_HELPER +
        " = function () {}; return true; }")
# After each test of the dry run: the mutants it reached (null: those reached while loading), then forgotten.
_TAKE = ("function (test) { var ns = globalThis." + NAMESPACE + " || {}; var cov = ns.mutantCoverage || "
         "{static: {}, perTest: {}}; var mine = test === null ? cov.static : cov.perTest[test] || {}; "
         "if (test !== null) delete cov.perTest[test]; return {hits: mine, hitCount: ns.hitCount === undefined ? "
         "null : ns.hitCount}; }")


def loaded_active(instrumented: str, mutant: str) -> str:
    """The instrumented engine with ``mutant`` active from its first statement (a mutant reached while it
    loads): Stryker's state set just before Stryker's head, which its instrumenter places after the file's
    directive prologue ('use strict' stays a directive)."""
    at = instrumented.find(f"function {NAMESPACE_HELPER}()")
    if at < 0:
        raise ValueError(f"the instrumented engine has no {NAMESPACE_HELPER} head (another StrykerJS version?)")
    return (instrumented[:at] + f"globalThis.{NAMESPACE} = {json.dumps({'activeMutant': mutant})};\n"
            + instrumented[at:])


@dataclass(frozen=True)
class Plan:
    """What the command fixed for every session (the ORIGINAL engine's tests)."""

    engine: str  # the ORIGINAL engine's path (a static mutant runs as it with the mutant's replacement)
    preludes: tuple[str, ...]  # paths, loaded before the engine as part of it
    adapter: str | None
    families: tuple[str, ...]  # the candidate families (cli.engine_choice.candidate_families)
    profiles: tuple[str, ...]  # asked for; empty: what the engine declares
    ruleset: str
    fresh_seed: int | None
    fuzz_seed: int | None
    fuzz_games: int
    timeout_ms: float
    node: str

    def to_json(self) -> dict:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.__dict__.items()}

    @classmethod
    def from_json(cls, data: dict) -> "Plan":
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})


@dataclass
class Test:
    family: str
    vector: dict
    check: object = None  # a smoke check (conformance.judge.smoke), else None

    @property
    def id(self) -> str:
        return self.vector["id"]


class MutantDriver(QuickJSDriver):
    """The node host's driver of the instrumented engine: Stryker's state is set in the engine's realm
    before each vector (a restarted engine gets it again), and, in the dry run, the mutants the vector
    reached are read after it."""

    def __init__(self, plan: Plan, preludes: list[str], instrumented: str, adapter: str | None) -> None:
        super().__init__(SEPARATOR.join(preludes + [instrumented]), engine_name="engine", adapter_source=adapter,
                         timeout_ms=plan.timeout_ms, host="node")
        self.node = plan.node
        self.preludes, self.instrumented = preludes, instrumented
        self.mutant: str | None = None  # the active mutant
        self.hit_limit: int | None = None
        self.recording: str | None = None  # the dry run's test: its coverage is read after its run
        self.late = False  # the last run had no answer within its time limit
        self.hits: dict[str, int] = {}  # the mutants the last test reached (dry run)
        self.hit_count: int | None = None  # how often the active mutant ran in the last test
        self.used = False  # a mutant has run on the loaded engine (it is not fresh)

    def load(self, mutant: str | None, text: str | None = None) -> None:
        """Activate ``mutant`` (None: none) from the next vector on; ``text``: the engine to load instead of
        the instrumented one (a static mutant's), in a freshly started engine."""
        self.mutant = mutant
        source = SEPARATOR.join(self.preludes + [self.instrumented if text is None else text])
        if source != self.engine_source:
            self.close()
            self.engine_source = source

    def static_hits(self) -> dict[str, int]:
        """The mutants reached while the engine loaded."""
        out = self._worker.eval_fn(_TAKE, [None], timeout_ms=self.timeout_ms)
        return dict(out.answer["hits"]) if out.ok else {}

    def run(self, family: str, test: dict, scale: float = 1.0) -> Run:
        if self._worker is None or self._worker.dead:
            try:
                self._spawn()
            except EngineLoadError as exc:
                self.late = False
                return Run("errored", f"restarting the engine failed: {exc}", fatal=True)
        self._worker.eval_fn(_SET, [{"activeMutant": self.mutant, "currentTestId": self.recording,
                                     "hitLimit": self.hit_limit, "hitCount": 0 if self.hit_limit is not None else None,
                                     "quiet": self.recording is None}], timeout_ms=self.timeout_ms)
        run = super().run(family, test, scale)
        self.late = run.late
        self.hits, self.hit_count = {}, None
        if self._worker is not None and not self._worker.dead:
            out = self._worker.eval_fn(_TAKE, [self.recording], timeout_ms=self.timeout_ms)
            if out.ok:
                self.hits, self.hit_count = dict(out.answer["hits"]), out.answer["hitCount"]
        return run


@dataclass
class Session:
    plan: Plan
    driver: MutantDriver | None = None
    tests: list[Test] = field(default_factory=list)
    kept: dict[str, Test] = field(default_factory=dict)  # the tests the original engine passes, by id
    # the tests the original passes outright (not divergent): one a mutant makes divergent detects it
    passed: set[str] = field(default_factory=set)
    original: str = ""  # the original engine's text
    declared: tuple = ()  # what the original declares that decides what is certified (_declared)
    # The dry run's file (DRY_RUN_FILE): Stryker runs the dry run in one of its test runners, so the others
    # (--jobs 2, or a runner restarted) learn from it which tests the original passes, kept and passed.
    said: str | None = None
    knows_dry_run: bool = False

    # -- init ----------------------------------------------------------------------------------
    def init(self, engine: str) -> dict:
        adapter = _read(self.plan.adapter) if self.plan.adapter else None
        self.original = _read(self.plan.engine)
        self.driver = MutantDriver(self.plan, [_read(p) for p in self.plan.preludes], _read(engine), adapter)
        try:
            info = self.driver.start()
        except EngineLoadError as exc:
            return {"error": f"the instrumented engine does not load: {exc}"}
        self.declared = _declared(info)
        asked = cert_profiles.asked_under(self.plan.profiles or None, self.plan.ruleset)
        run, _ = cert_profiles.select(asked, cert_profiles.declared(info.get("profiles")), self.plan.ruleset)
        chosen = [f for f in cert_profiles.families_of(run) if f in self.plan.families]
        vectors = load_tests(chosen, self.plan.fresh_seed)
        # The CommonJS check too (engine.commonjs) where certification runs it: an engine without an adapter.
        tests = [Test(f, t, check) for f, t, check in smoke_tests(vectors, commonjs=self.plan.adapter is None)]
        tests += [Test(f, t) for f, family in vectors.items() for t in family]
        for kind in FUZZ_KINDS if self.plan.fuzz_seed is not None else ():  # each fuzz row the run plays
            if kind.profile in run and kind.family in vectors:
                tests += [Test(kind.family, kind.generate(self.plan.fuzz_seed, k)) for k in range(self.plan.fuzz_games)]
        # The certification's order, with its five-card digest last: it enumerates every five-card hand,
        # by far the costliest test, and a mutant the cheaper ones kill never needs it.
        self.tests = sorted(tests, key=lambda t: is_digest(t.vector))
        self.kept = {t.id: t for t in self.tests}
        return {"tests": len(self.tests)}

    # -- the dry run ---------------------------------------------------------------------------
    def dry_run(self) -> dict:
        self.driver.load(None)
        if self.driver._worker is None:
            self.driver.start()
        static = self.driver.static_hits()
        results = [{"id": LOAD_TEST, "name": LOAD_TEST, "status": "passed", "ms": 0}]
        per_test: dict[str, dict] = {}
        left = []
        runner = self._runner()
        for test in self.tests:
            self.driver.recording = test.id
            case = self._case(runner, test)
            self.driver.recording = None
            if case.status in ("failed", "skipped"):  # the original does not pass it: it can kill nothing
                # (The CommonJS check is no basic: an engine failing it is judged on the rest, as certification does.)
                if test.check is not None and case.status == "failed" and test.vector is not SMOKE_MODULE[1]:
                    return {"error": f"the engine fails the smoke tier ({test.id}: {case.message[:300]})"}
                left.append(f"{test.id} ({case.status}: {case.message[:200]})")
                self.kept.pop(test.id, None)
                continue
            if case.status == "passed":
                self.passed.add(test.id)
            results.append({"id": test.id, "name": test.id, "status": "passed", "ms": round(case.seconds * 1000, 3)})
            per_test[test.id] = self.driver.hits
        self.knows_dry_run = True
        return {"tests": results, "coverage": {"static": static, "perTest": per_test}, "left": left}

    def dry_run_said(self) -> dict:
        """What the other test runners need of this one's dry run (written to DRY_RUN_FILE)."""
        return {"kept": list(self.kept), "passed": sorted(self.passed)}

    def _learn_dry_run(self) -> None:
        """A runner that did not run the dry run takes its outcome from the file: without it a test the
        original fails would kill every static mutant, and a divergence would detect none (issue #37)."""
        if self.knows_dry_run or self.said is None:
            return
        with open(self.said, encoding="utf-8") as f:
            said = json.load(f)
        if "kept" not in said:
            raise RuntimeError(f"the dry run's file {self.said} has no outcome: {str(said)[:200]}")
        self.kept = {i: self.kept[i] for i in said["kept"]}
        self.passed = set(said["passed"])
        self.knows_dry_run = True

    # -- a mutant ------------------------------------------------------------------------------
    def mutant_run(self, mutant: str, tests: list[str] | None, static: bool, hit_limit: int | None,
                   bail: bool, location: dict | None = None, replacement: str | None = None) -> dict:
        self._learn_dry_run()
        self.driver.hit_limit = hit_limit
        if static:
            ended = self._fresh_engine(mutant, location, replacement)
            if ended is not None:
                return ended
        else:
            self.driver.load(mutant)
            if self.driver.used:
                # A mutant may change the engine's own state (its tables, a shared deck shuffled in place):
                # the next mutant must not be judged on what an earlier one left (false kills), so each
                # runs on a freshly loaded engine.
                self.driver.close()
            if self.driver._worker is None:
                self.driver.start()
            self.driver.used = True
        chosen = set(tests) if tests is not None else None
        runner = self._runner()
        killed, failure, ran = [], "", 0
        diverged, divergence = [], ""  # tests the original passes that the mutant makes divergent on a ruling
        for test in self.tests:
            if test.id not in self.kept or chosen is not None and test.id not in chosen:
                continue
            if not static and is_digest(test.vector) and location and replacement is not None:
                # The five-card digest enumerates every five-card hand: the instrumented build's switches make
                # it tens of times slower, so it runs on a fresh engine of the mutant's own text.
                ended = self._fresh_engine(mutant, location, replacement)
                if ended is not None:
                    return ended
            case = self._case(runner, test)
            ran += 1
            limit = self.driver.hit_limit
            if self.driver.late or (limit is not None and (self.driver.hit_count or 0) > limit):
                why = "no answer within the time limit" if self.driver.late else f"hit limit {limit} reached"
                self.driver.close()  # a runaway engine is not reused
                return {"status": "timeout", "reason": f"{test.id}: {why}"}
            if case.status == "failed":
                killed.append(test.id)
                failure = failure or f"{test.id}: {case.message}"[:1000]
                if bail:
                    break
            elif case.status == "divergent" and test.id in self.passed:
                diverged.append(test.id)
                divergence = divergence or f"{test.id}: {DIVERGED} {', '.join(case.rulings)}: {case.message}"[:1000]
        if killed:
            return {"status": "killed", "killedBy": killed, "failure": failure, "tests": ran}
        if diverged:
            # The certification tells it from the original: the report names it divergent on a ruling (the
            # mutant takes another option the contract leaves open), so it is detected, not a survivor.
            return {"status": "killed", "killedBy": diverged, "failure": divergence, "tests": ran}
        return {"status": "survived", "tests": ran}

    def _fresh_engine(self, mutant: str, location: dict | None, replacement: str | None) -> dict | None:
        """A freshly loaded engine with ``mutant``: the original engine's text with the mutant's replacement
        at its location (Stryker's own description of the mutant), which runs as fast as the original; the
        instrumented build with the mutant active from its first statement where that text does not parse.
        For a static mutant (reached while the engine loads: every test runs, on a fresh load) and for the
        five-card digest. Returns the mutant's outcome when its engine is not the original's for
        certification (killed by ``smoke.load``: it does not load, or declares other profiles or lacks
        other functions; a timeout: it does not finish loading), else None."""
        texts = [spliced(self.original, location, replacement)] if location and replacement is not None else []
        texts.append(None)
        for text in texts:
            self.driver.load(None if text is not None else mutant,
                             text if text is not None else loaded_active(self.driver.instrumented, mutant))
            self.driver.close()  # a fresh load, always
            try:
                info = self.driver.start()
            except EngineLoadError as exc:
                if text is not None and "does not parse" in str(exc):
                    continue  # Stryker's replacement printed where it does not fit the original's text
                if "did not finish loading" in str(exc):  # engine_drivers' words for a late load
                    return {"status": "timeout", "reason": f"{LOAD_TEST}: {exc}"}
                return _load_kill(f"the engine does not load: {exc}")
            if _declared(info) != self.declared:
                return _load_kill(f"the engine declares profiles {info.get('profiles')} and lacks "
                                  f"{info.get('missing')}; the original: {self.declared[0]}, lacking {self.declared[1]}")
            return None
        return None

    def _runner(self) -> Runner:
        runner = Runner(self.driver)
        runner.hung = True  # no retry of a late vector with 16 times the limit: lateness is a Timeout here
        return runner

    @staticmethod
    def _case(runner: Runner, test: Test):
        if test.check is not None:
            return runner.smoke(test.family, test.vector, test.check)
        return runner.vector(test.family, test.vector)

    def close(self) -> None:
        if self.driver is not None:
            self.driver.close()


def _load_kill(why: str) -> dict:
    return {"status": "killed", "killedBy": [LOAD_TEST], "failure": why[:1000], "tests": 1}


def _declared(info: dict) -> tuple:
    """What an engine's description says that decides what is certified: its profiles, its missing functions."""
    return info.get("profiles"), sorted(info.get("missing", []))


def spliced(text: str, location: dict, replacement: str) -> str:
    """``text`` with ``replacement`` in place of the code at Stryker's ``location`` (0-based lines, columns)."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    start = starts[location["start"]["line"]] + location["start"]["column"]
    end = starts[location["end"]["line"]] + location["end"]["column"]
    return text[:start] + replacement + text[end:]


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def serve(plan: Plan, lines, out, said: str | None = None) -> None:
    """Answer each request line of ``lines`` with one JSON line on ``out`` until stdin ends; the dry run's
    tests left out, or why the start or the dry run failed, go to the file ``said`` too (DRY_RUN_FILE)."""
    session = Session(plan, said=said)
    try:
        for line in lines:
            request = json.loads(line)
            op = request.get("op")
            try:
                if op == "init":
                    answer = session.init(request["engine"])
                elif op == "dryRun":
                    answer = session.dry_run()
                elif op == "mutantRun":
                    answer = session.mutant_run(str(request["mutant"]), request.get("tests"), bool(request.get("static")),
                                                request.get("hitLimit"), bool(request.get("bail", True)),
                                                request.get("location"), request.get("replacement"))
                else:
                    answer = {"error": f"unknown op {op!r}"}
            except Exception as exc:  # noqa: BLE001 - Stryker reports it as the mutant's RuntimeError
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            if said is not None and op in ("init", "dryRun") and ("error" in answer or op == "dryRun"):
                with open(said, "w", encoding="utf-8") as f:
                    json.dump({"error": answer["error"]} if "error" in answer
                              else {"left": answer["left"], **session.dry_run_said()}, f)
            out.write(json.dumps(answer, separators=(",", ":")) + "\n")
            out.flush()
    finally:
        session.close()


def main() -> None:
    with open(os.environ[PLAN_ENV], encoding="utf-8") as f:
        plan = Plan.from_json(json.load(f))
    out, sys.stdout = sys.stdout, sys.stderr  # the protocol owns stdout
    serve(plan, sys.stdin, out, os.path.join(os.path.dirname(os.environ[PLAN_ENV]), DRY_RUN_FILE))


if __name__ == "__main__":
    main()
