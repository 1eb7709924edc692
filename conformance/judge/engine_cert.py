"""Certify an engine against the golden vectors (docs/INTERPRETING.md): the smoke tier, the
per-family judges and the certification verdict. Drivers (:mod:`conformance.judge.engine_drivers`)
say what the engine did; this module decides what that means."""
from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from conformance.vectors import fresh_vectors, library as vectors
from . import cert_profiles, fuzz, fuzz_guided, hand_fuzz
from .engine_drivers import EngineLoadError, Run
from .families import DEFAULT_RULESET, FAMILIES, FAMILY_RULESET, OPTIONAL, RULESET_NOT_SUPPORTED, RULESETS
from .family_judges import judge
from .judged import failed
from .smoke import BREAKS, SMOKE_MODULE, smoke_problem, smoke_tests
from .proof import EngineChoices
from .trajectory import failing_game
from .verdicts import SUITE_ERROR, Case, Report

# Fatal errors (hangs, crashes, garbage: each costs a timeout or a restart) before vectors are not
# run: in a row in one family, in all in one family, in the whole run. An engine that hangs on every
# other vector must cost a bounded number of timeouts too.
ABANDON_AFTER = 3
ABANDON_FAMILY_AFTER = 5
ABANDON_RUN_AFTER = 10
# A vector with no answer within its time limit is run again with this multiple of it before the
# lateness counts (issue #24, item 5: a loaded machine must not change a verdict); an engine that
# answers then is reported as slow, with its time, and judged on its answer. Once a retry too
# gets no answer (a hang), no vector is retried again: a hanging engine costs one long wait.
RETRY_SCALE = 16
FUZZ_KINDS = (fuzz.GAMES, hand_fuzz.HANDS)  # the fuzz rows: the tournament profile's games, the hand profile's hands
JUDGE_AHEAD = 2  # runs waiting for the judging thread at most (a tournament's answer is megabytes)
MESSAGE_LIMIT = 2000  # characters of a verdict's message (it may quote what the engine returned)


# ---- running ------------------------------------------------------------------------------------

def _cut(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + f" … ({len(text)} characters)"


class Runner:
    """Runs vectors through a driver, one Case each. After ABANDON_AFTER consecutive or
    ABANDON_FAMILY_AFTER in all fatal errors (hang, crash, garbage) in a family, that family's
    remaining vectors are skipped; after ABANDON_RUN_AFTER in the run, every remaining vector is.
    A hanging engine costs a few timeouts, not one per vector."""

    def __init__(self, driver) -> None:
        self.driver = driver
        self.streak: Counter = Counter()
        self.fatal: Counter = Counter()
        self.choices = EngineChoices()  # the ruling alternatives it follows, for every family (issue #24)
        self.hung = False  # a retried vector got no answer either: no more retries

    def abandoned(self, family: str) -> str | None:
        """Why ``family``'s next vector is not run, or None."""
        why = "not run: the engine hung or died on"
        if self.streak[family] >= ABANDON_AFTER:
            return f"{why} {ABANDON_AFTER} consecutive {family} vectors"
        if self.fatal[family] >= ABANDON_FAMILY_AFTER:
            return f"{why} {ABANDON_FAMILY_AFTER} {family} vectors"
        if sum(self.fatal.values()) >= ABANDON_RUN_AFTER:
            return f"{why} {ABANDON_RUN_AFTER} vectors of this run"
        return None

    def run(self, family: str, test: dict) -> tuple[Run, float | None]:
        """The driver's run, and the milliseconds it took when it was late and answered on a retry
        with RETRY_SCALE times the limit (else None)."""
        run = self._run(family, test)
        if not run.late or self.hung:
            return run, None
        t0 = time.perf_counter()
        again = self._run(family, test, RETRY_SCALE)
        if again.late:
            self.hung = True
            return again, None
        return again, (time.perf_counter() - t0) * 1000

    def _run(self, family: str, test: dict, scale: float = 1.0) -> Run:
        """The driver's run; an exception it lets escape (a bug, or something no one foresaw from an
        engine) fails this vector, never the whole certification, and the engine is restarted."""
        try:
            return self.driver.run(family, test, scale) if scale != 1.0 else self.driver.run(family, test)
        except Exception as exc:  # noqa: BLE001 - a last resort: the report must still be written
            try:
                self.driver.close()  # a driver starts a fresh engine on the next run
            except Exception:  # noqa: BLE001
                pass
            return Run("errored", f"the driver failed on this vector ({type(exc).__name__}: {exc})"[:1000],
                       fatal=True)

    def smoke(self, family: str, test: dict, check: Callable[[dict, dict], str | None]) -> Case:
        t0 = time.perf_counter()
        problem = smoke_problem(test, check, self.run(family, test)[0])
        named = BREAKS.search(problem or "")
        return Case(test["id"], "smoke", "failed" if problem else "passed", test["clauses"],
                    _cut(f"{test['comment']}: {problem}") if problem else test["comment"],
                    seconds=time.perf_counter() - t0, breaks=named.group(1) if named else None)

    def vector(self, family: str, test: dict) -> Case:
        started = self._start(family, test)
        return started if isinstance(started, Case) else self._judge(family, test, *started)

    def vectors(self, items: "Iterable[tuple[str, dict]]", overlap: bool = True) -> "Iterator[Case]":
        """The Case of each (family, test), in order. With ``overlap`` the engine runs the next vectors
        while a thread judges this one (issue #25, both cores: the judging is the reference's Python,
        the engine its own process, which waits on neither). The verdicts are the same: what runs and
        what is skipped depend only on the runs (fatal ones abandon a family), never on a judgment,
        and the judgments are made one at a time, in order (the engine's choices carry over)."""
        if not overlap:
            yield from (self.vector(family, test) for family, test in items)
            return
        pending: deque[Future] = deque()
        with ThreadPoolExecutor(1, thread_name_prefix="judge") as pool:
            for family, test in items:
                started = self._start(family, test)
                if isinstance(started, Case):
                    pending.append(done := Future())
                    done.set_result(started)
                else:
                    pending.append(pool.submit(self._judge, family, test, *started))
                while pending and (len(pending) > JUDGE_AHEAD or pending[0].done()):
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()

    def _start(self, family: str, test: dict) -> "Case | tuple[Run, float | None, float]":
        """A skipped Case, or the run to judge: (run, slow_ms, the time it started)."""
        if reason := self.abandoned(family):
            return Case(test["id"], family, "skipped", test["clauses"], reason)
        t0 = time.perf_counter()
        run, slow_ms = self.run(family, test)
        self.streak[family] = self.streak[family] + 1 if run.fatal else 0
        self.fatal[family] += run.fatal
        return run, slow_ms, t0

    def _judge(self, family: str, test: dict, run: Run, slow_ms: "float | None", t0: float) -> Case:
        try:
            with self.choices.judging():
                j = judge(family, test, run)
        except Exception as exc:  # noqa: BLE001 - results come from the engine: any shape at all
            j = failed(f"the result is malformed and could not be judged ({type(exc).__name__}: {exc}): "
                       f"{run.value!r}"[:1000])
        if j.status == "divergent":
            j.notes += self.choices.record(test["id"], j.alternative)
        if run.note:
            j.notes.append(run.note)
        if slow_ms is not None:  # judged on its answer; the lateness is reported, not failed
            j.notes.append(f"slow: no answer within the time limit; answered in {slow_ms:.0f} ms when run again "
                           f"with {RETRY_SCALE} times the limit")
        first = j.first.as_json() if j.first is not None and j.status == "failed" else None
        failures = [{**d.as_json(), "later": j.later if d is j.first else d.counted} for d in j.failures] \
            if j.status == "failed" else []
        return Case(test["id"], family, j.status, test["clauses"], _cut(j.message), j.diff, j.rulings,
                    [_cut(n) for n in j.notes], time.perf_counter() - t0,
                    breaks=first["clause"] if first else j.breaks if j.status == "failed" else None,
                    kind=j.kind if j.status == "failed" and not first else None, first=first, later=j.later, answers=j.answers,
                    alternative=j.alternative, failures=failures, diagnosis=j.diagnosis, slow_ms=slow_ms,
                    trajectory=failing_game(family, test["input"], run.value, first) if first else None)


def load_tests(families: Iterable[str], fresh_seed: int | None = None) -> dict[str, list[dict]]:
    """The committed vectors of ``families``, in the canonical family order; with ``fresh_seed``,
    each family that has them is followed by its fresh tests for that seed (fresh_vectors.py)."""
    chosen = set(families)
    tests = {f: vectors.load(f)["tests"] for f in FAMILIES if f in chosen}
    if fresh_seed is not None:
        for family, fresh in fresh_vectors.generate(fresh_seed, chosen).items():
            tests[family] = tests[family] + fresh
    return tests


def conclude(report: Report, run: "Sequence[str] | None" = None, absent: Sequence[str] = (),
             asked: bool = False) -> None:
    """Set ``certified``, ``verdict`` and the profile matrix (``profiles``, cert_profiles.matrix):
    each profile in ``run`` (default: the report's ruleset's) is certified when no vector of its
    families failed, none of its required families was skipped entirely and no family saw its
    ruleset refused for some games but not others; ``absent`` profiles, and those whose every
    vector the engine skipped, are not implemented. The report is certified when no profile is
    "not certified", some profile is certified and, when the profiles were ``asked`` for
    (--profile, --ruleset), none is "not implemented". A run of some families only (--family) is
    never a certification."""
    ruleset = report.ruleset or DEFAULT_RULESET
    asked = asked or run is None
    run = list(cert_profiles.RULESET_PROFILES[ruleset] if run is None else run)
    scope = "" if ruleset == DEFAULT_RULESET else f" for {ruleset}"
    counts = report.counts()
    # The CommonJS check (smoke.module) stops nothing: the vectors still ran, and it is one more reason.
    failed_smoke = [c for c in report.smoke if c.status == "failed" and c.id != SMOKE_MODULE[1]["id"]]
    module_failed = [c for c in report.smoke if c.status == "failed" and c not in failed_smoke]
    required = set(cert_profiles.families_of(run)) - OPTIONAL
    refused = Counter(c.group for c in report.cases
                      if c.status == "skipped" and c.message.startswith(RULESET_NOT_SUPPORTED))
    problems: dict[str, list[str]] = {}
    for c in module_failed:
        problems.setdefault(c.id, []).append(f"{c.id} failed: {c.message}")
    for g, c in counts.items():
        if c["failed"]:
            problems.setdefault(g, []).append(f"{c['failed']} failed in {g}")
        if g in required and sum(c.values()) == c["skipped"]:
            why = next((case.message for case in report.cases if case.group == g), "it has no vectors")
            problems.setdefault(g, []).append(f"required family {g} was skipped entirely ({why})")
        if 0 < refused[g] < sum(c.values()):
            problems.setdefault(g, []).append(f"{g}: the engine refused the ruleset for {refused[g]} of "
                                              f"{sum(c.values())} games (it must play all of them or none)")
    report.profiles = cert_profiles.matrix(counts, run, absent, smoke_failed=bool(failed_smoke), problems=problems)
    headline = cert_profiles.headline(report.profiles)
    if failed_smoke:
        report.certified = False
        first = failed_smoke[0]
        report.verdict = (f"NOT CERTIFIED{scope} ({headline}): the smoke tier failed ({first.id}), so no vector "
                          "was run; fix the engine or adapter basics first")
        return
    totals = Counter()
    for c in counts.values():
        totals.update(c)
    tally = ", ".join(f"{totals[s]} {s}" for s in ("passed", "divergent", "failed", "skipped"))
    if totals[SUITE_ERROR]:  # the suite's own errors: said apart, never counted as the engine's failures
        tally += f", {totals[SUITE_ERROR]} suite error{'s' if totals[SUITE_ERROR] != 1 else ''}"
    suite_errors = [cert_profiles.suite_errors_text(c[SUITE_ERROR], g) for g, c in counts.items() if c[SUITE_ERROR]]
    follows = sorted({(r, o) for c in report.cases if c.alternative for r, o in c.alternative.items()},
                     key=lambda item: int(item[0][1:]))
    if follows:  # which documented alternatives the engine was proven to follow
        tally += "; follows " + ", ".join(f"{r} = {o}" for r, o in follows)
    report.partial = set(report.groups) - set(cert_profiles.FUZZ_GROUPS.values()) != set(cert_profiles.families_of(run))
    # A profile the engine skipped entirely is "not implemented": a problem only when it was asked for.
    unimplemented = {f for p, row in report.profiles.items() if row["verdict"] == cert_profiles.NOT_IMPLEMENTED
                     for f in cert_profiles.PROFILES[p]}
    reasons = [r for g, rs in problems.items() for r in rs
               if asked or g not in unimplemented or not r.startswith("required family")]
    report.ok = not reasons and not suite_errors
    if report.partial:  # what it ran, never CERTIFIED; the matrix shows only the profiles it touched
        report.profiles = {p: row for p, row in report.profiles.items()
                           if row["families"] or row["verdict"] == cert_profiles.NOT_IMPLEMENTED}
        ran = f"a run of the families {', '.join(report.groups) or '(none)'} only{scope}, not a certification"
        report.verdict = (f"NO FAILURES in {ran}: {tally}" if report.ok
                          else f"INCOMPLETE {ran}: {'; '.join(suite_errors)} ({tally})" if not reasons
                          else f"FAILURES in {ran}: {'; '.join(reasons + suite_errors)} ({tally})")
        return
    verdicts = [row["verdict"] for row in report.profiles.values()]
    report.certified = (report.ok and cert_profiles.CERTIFIED in verdicts and cert_profiles.NOT_CERTIFIED not in verdicts
                        and not (asked and cert_profiles.NOT_IMPLEMENTED in verdicts))
    if report.certified:
        certified = [p for p, v in zip(report.profiles, verdicts) if v == cert_profiles.CERTIFIED]
        rest = [p for p, v in zip(report.profiles, verdicts) if v != cert_profiles.CERTIFIED]
        report.verdict = (f"CERTIFIED{scope} for {', '.join(certified)}"
                          + (f" (not implemented: {', '.join(rest)})" if rest else "") + f": {tally}")
        return
    why = reasons + suite_errors + [f"{p}: {'; '.join(row.get('reasons', []))}" for p, row in report.profiles.items()
                                    if row["verdict"] == cert_profiles.NOT_IMPLEMENTED]
    word = "INCOMPLETE" if suite_errors and not reasons else "NOT CERTIFIED"  # the suite erred, the engine did not fail
    report.verdict = f"{word}{scope} ({headline}): {'; '.join(why)} ({tally})"


def _fuzz(runner: Runner, plan: "fuzz.FuzzPlan", report: Report, on_case, run: "Sequence[str]",
          kind: "fuzz.FuzzKind") -> None:
    """Differential fuzzing after the vectors: ``kind``'s games are the report's row ``kind.group``
    (the tournament profile's ``fuzz``, the hand profile's ``hand-fuzz``). Guided (plan.guided,
    --coverage): for the tournament, holdem-sng-3-v4 games too when the run certifies that ruleset."""
    report.groups.append(kind.group)
    guide = None
    if plan.guided and kind is hand_fuzz.HANDS:
        guide = hand_fuzz.guide_for(runner.driver, plan.seed)
    elif plan.guided:
        rulesets = (DEFAULT_RULESET,) + ((FAMILY_RULESET["sng3v4"],) if "sng3v4" in run else ())
        guide = fuzz_guided.guide_for(runner.driver, plan.seed, rulesets)
    done = fuzz.run_plan(runner, plan, lambda case: (report.cases.append(case), on_case(case)), guide, kind)
    # budgetSeconds: the time budget that decided the count (None: a count was asked for, the default).
    # The hand profile's row says whether its hands were coverage-guided or blind (mode).
    report.subject[kind.key] = {"seed": plan.seed, "games": done.games,
                                "budgetSeconds": plan.seconds if plan.games is None else None,
                                **({"mode": "blind"} if kind is hand_fuzz.HANDS and guide is None else {}),
                                **({"shrinkRuns": done.shrink_runs} if done.vector else {}),
                                **(guide.summary() if guide is not None else {})}


def load_failed(exc: EngineLoadError) -> Case:
    return Case("smoke.load", "smoke", "failed", [], f"the engine could not be loaded: {exc}")


def start(driver, families: Iterable[str]) -> tuple[list[Case], dict, Runner | None]:
    """Load the engine and run the smoke tier: (smoke cases, the driver's description of the
    engine, a Runner for the vectors -- None when loading or a smoke check failed)."""
    try:
        info = driver.start()
    except EngineLoadError as exc:
        return [load_failed(exc)], {}, None
    cases, runner = smoke_tier(driver, families)
    return cases, info, runner


def smoke_tier(driver, families: Iterable[str], certification: bool = False) -> tuple[list[Case], Runner | None]:
    """The smoke checks of a loaded engine for ``families``: (cases, a Runner, or None when one failed).
    ``certification``: a whole certification (every family of the profiles run), where a JavaScript
    engine without an adapter also gets the CommonJS check, whose failure stops nothing."""
    cases = [Case("smoke.load", "smoke", "passed", [], "the engine loaded")]
    runner = Runner(driver)
    for family, test, check in smoke_tests(families, commonjs=certification and commonjs_checked(driver)):
        cases.append(runner.smoke(family, test, check))
        if cases[-1].status == "failed" and test is not SMOKE_MODULE[1]:
            return cases, None
    return cases, runner


def commonjs_checked(driver) -> bool:
    """Whether the engine's Node export is certified (engine.commonjs): a JavaScript engine's own text.
    An adapted engine's export is its adapter's, and an engine behind --cmd has no JavaScript text."""
    return getattr(driver, "language", None) == "javascript" and not getattr(driver, "adapter_source", None)


def certify(driver, tests: dict[str, list[dict]], subject: dict, *, ruleset: str = DEFAULT_RULESET,
            on_case: Callable[[Case], None] = lambda case: None, title: str = "holdem-cert engine",
            fuzz_plan: "fuzz.FuzzPlan | None" = None, profiles: "Sequence[str] | None" = None,
            overlap: bool = True) -> Report:
    """Load the engine, choose its profiles (cert_profiles.select: ``profiles`` asked for, else
    what the engine declares, else ``ruleset``'s), run the smoke tier of their families, then (if
    it passed) every vector of ``tests`` (family -> vectors, as :func:`load_tests` gives them)
    except those of profiles the engine does not implement, and conclude per profile.

    ``subject`` describes the engine for the report; the driver's own description is merged in.
    ``overlap``: judge each vector while the engine runs the next (Runner.vectors; the same report).
    The driver is closed at the end.
    """
    if ruleset not in RULESETS:
        raise ValueError(f"ruleset: unknown {ruleset!r} (known: {', '.join(RULESETS)})")
    unknown = [p for p in profiles or () if p not in cert_profiles.PROFILES]
    if unknown:
        raise ValueError(f"profiles: unknown {unknown[0]!r} (known: {', '.join(cert_profiles.PROFILES)})")
    report = Report(title, "engine", dict(subject), list(tests), ruleset=ruleset)
    run, absent = list(cert_profiles.PROFILES), []
    try:
        try:
            info = driver.start()
        except EngineLoadError as exc:
            report.smoke = [load_failed(exc)]
            info, runner = {}, None
        else:
            profiles = cert_profiles.asked_under(profiles, ruleset)
            run, absent = cert_profiles.select(profiles, cert_profiles.declared(info.get("profiles")), ruleset)
            chosen = set(cert_profiles.families_of(run))
            tests = {f: t for f, t in tests.items() if f in chosen}
            report.groups = list(tests)
            info = {**info, "missing": cert_profiles.needed_missing(info.get("missing", []), run)}
            if report.subject.get("fresh"):  # the fresh tests of the profiles run
                info["fresh"] = fresh_vectors.summary(report.subject["fresh"]["seed"], tests)
            whole = set(tests) == set(cert_profiles.families_of(run))  # not a run of some families only
            report.smoke, runner = smoke_tier(driver, tests, certification=whole)
        report.subject.update(info)
        if runner is not None:
            for case in runner.vectors([(f, test) for f, family_tests in tests.items() for test in family_tests],
                                       overlap):
                report.cases.append(case)
                on_case(case)
            for kind in FUZZ_KINDS if fuzz_plan is not None else ():
                if kind.profile in run and kind.family in tests:
                    _fuzz(runner, fuzz_plan, report, on_case, run, kind)
    finally:
        driver.close()
    conclude(report, run, absent, asked=bool(profiles))
    return report
