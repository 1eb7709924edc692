'use strict';
/*
 * The mutants StrykerJS makes of one file, listed without running anything (holdem-cert mutate
 * --sample, conformance/mutate/stryker.py): `node list_mutants.js STRYKER_DIR FILE` prints one JSON
 * array of {id, mutatorName, replacement, location} on stdout. Stryker's own instrumenter, with the
 * options Stryker's run uses (every mutator, no ignorers), so the ids and locations are the run's.
 */
const path = require('path');
const fs = require('fs');
const { pathToFileURL } = require('url');

async function main() {
  const [strykerDir, file, instrumentedOut] = process.argv.slice(2);
  const entry = path.join(strykerDir, 'node_modules', '@stryker-mutator', 'instrumenter', 'dist', 'src', 'index.js');
  const { Instrumenter } = await import(pathToFileURL(entry).href);
  const quiet = { isDebugEnabled: () => false, debug() {}, info() {}, warn() {}, error() {}, trace() {},
                  isTraceEnabled: () => false, isInfoEnabled: () => false, isWarnEnabled: () => false };
  const instrumenter = new Instrumenter(quiet);
  const content = fs.readFileSync(file, 'utf8');
  const result = await instrumenter.instrument([{ name: path.basename(file), mutate: true, content }],
                                               { plugins: null, excludedMutations: [], ignorers: [] });
  const out = result.mutants.map((m) => ({ id: m.id, mutatorName: m.mutatorName, replacement: m.replacement,
                                           location: m.location }));
  process.stdout.write(JSON.stringify(out) + '\n');
  if (instrumentedOut) fs.writeFileSync(instrumentedOut, result.files[0].content);
}

main().catch((e) => { process.stderr.write(String(e && e.stack || e) + '\n'); process.exit(1); });
