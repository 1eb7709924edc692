'use strict';
/*
 * StrykerJS plugins of holdem-cert mutate (conformance/mutate/stryker.py starts Stryker with them).
 *
 * - Test runner "holdem-certification": each Stryker test runner process starts one Python session
 *   (python -m conformance.mutate.session, conformance/mutate/session.py) and hands it Stryker's
 *   requests over JSON lines: the dry run (every test of the certification, with the mutants each
 *   reaches: Stryker's perTest coverage) and each mutant's run (its tests, stopping at the first
 *   the certification fails). The engine itself runs in the node host's own process, which the
 *   session starts: never in this process.
 * - Reporter "holdem-progress": one JSON line per event on the file descriptor the command gave
 *   (HOLDEM_MUTATE_EVENTS_FD): the plan's size, then each mutant's status, for its progress bar.
 *
 * No import of @stryker-mutator/api: a plugin is a plain {kind, name, factory | injectableClass}.
 */
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const ENV = process.env;

class HoldemTestRunner {
  constructor() {
    this.child = null;
    this.pending = [];
  }

  capabilities() {
    return { reloadEnvironment: true };  // a mutant reached while loading gets a fresh engine (session.py)
  }

  async init() {
    this.child = spawn(ENV.HOLDEM_MUTATE_PYTHON, ['-m', 'conformance.mutate.session'],
                       { stdio: ['pipe', 'pipe', 'inherit'], env: ENV });
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve(signal || code)));
    const lines = readline.createInterface({ input: this.child.stdout });
    lines.on('line', (line) => {
      const next = this.pending.shift();
      if (next) next.resolve(line);
    });
    this.child.on('exit', (code, signal) => {
      for (const p of this.pending.splice(0)) p.reject(new Error('the certification session ended (' + (signal || code) + ')'));
    });
    const answer = await this.ask({ op: 'init', engine: path.resolve(ENV.HOLDEM_MUTATE_ENGINE) });
    if (answer.error) throw new Error(answer.error);
  }

  ask(request) {
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve: (line) => {
        try { resolve(JSON.parse(line)); } catch (e) { reject(new Error('the session answered ' + line.slice(0, 200))); }
      }, reject });
      this.child.stdin.write(JSON.stringify(request) + '\n');
    });
  }

  async dryRun() {
    const answer = await this.ask({ op: 'dryRun' });
    if (answer.error) return { status: 'error', errorMessage: answer.error };
    const tests = answer.tests.map((t) => ({ id: t.id, name: t.name, timeSpentMs: t.ms, status: 0 /* Success */ }));
    return { status: 'complete', tests, mutantCoverage: answer.coverage };
  }

  async mutantRun(options) {
    const answer = await this.ask({
      op: 'mutantRun', mutant: options.activeMutant.id, tests: options.testFilter === undefined ? null : options.testFilter,
      static: options.mutantActivation === 'static', hitLimit: options.hitLimit === undefined ? null : options.hitLimit,
      bail: !options.disableBail,
      location: options.activeMutant.location, replacement: options.activeMutant.replacement,
    });
    if (answer.error) return { status: 'error', errorMessage: answer.error };
    if (answer.status === 'killed') {
      return { status: 'killed', killedBy: answer.killedBy, failureMessage: answer.failure, nrOfTests: answer.tests };
    }
    if (answer.status === 'timeout') return { status: 'timeout', reason: answer.reason };
    return { status: 'survived', nrOfTests: answer.tests };
  }

  async dispose() {
    if (this.child === null) return;
    this.child.stdin.end();  // the session closes its engine and exits at the end of its input
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}
function createTestRunner() { return new HoldemTestRunner(); }
createTestRunner.inject = [];

class HoldemProgress {
  constructor() {
    this.fd = ENV.HOLDEM_MUTATE_EVENTS_FD === undefined ? null : Number(ENV.HOLDEM_MUTATE_EVENTS_FD);
  }
  send(event) {
    if (this.fd !== null) fs.writeSync(this.fd, JSON.stringify(event) + '\n');
  }
  onDryRunCompleted() { this.send({ event: 'dryRun' }); }
  onMutationTestingPlanReady(event) {
    this.send({ event: 'plan', mutants: event.mutantPlans.length,
                run: event.mutantPlans.filter((p) => p.plan === 'Run').length });
  }
  onMutantTested(result) { this.send({ event: 'mutant', id: result.id, status: result.status }); }
}
HoldemProgress.inject = [];

module.exports.strykerPlugins = [
  { kind: 'TestRunner', name: 'holdem-certification', factory: createTestRunner },
  { kind: 'Reporter', name: 'holdem-progress', injectableClass: HoldemProgress },
];
