// Many reproduction scripts (conformance/report/repro.py) in one node process (repro.run_batch):
// each script runs as `node FILE.js` runs it -- in a fresh V8 context of its own, with node's
// module wrapper (require, module, __filename, __dirname), its engine files loaded into that context
// by its own `vm.runInThisContext`, console and process.exitCode its own -- so no state passes from
// one script to the next. Reads one JSON line per script ({"file": PATH}) on stdin and writes one
// per script: {"file", "exit", "stdout", "stderr"}; exit is what `node FILE.js` would exit with
// (process.exitCode, 0 when unset; 1 for an uncaught exception).
'use strict';
const fs = require('fs'), vm = require('vm'), util = require('util'), path = require('path');
const TIMEOUT_MS = Number(process.argv[2] || 180000);  // the longest vector budget, as `holdem-cert repro`

function runOne(file) {
  const stdout = [], stderr = [];
  const shimProcess = { exitCode: undefined, argv: [process.argv[0], file], env: {}, platform: process.platform,
                        versions: process.versions, version: process.version };
  const shimConsole = { log: (...a) => stdout.push(util.format(...a)), error: (...a) => stderr.push(util.format(...a)) };
  shimConsole.info = shimConsole.log; shimConsole.warn = shimConsole.error;
  const context = vm.createContext({ console: shimConsole, process: shimProcess });
  // `vm.runInThisContext` inside the script means the script's own context, as it does under node.
  const shimVm = Object.assign(Object.create(vm), { runInThisContext: (code, options) => vm.runInContext(code, context, options) });
  const shimRequire = name => (name === 'vm' ? shimVm : require(name));
  const module = { exports: {} };
  context.__holdemBatchArgs = [module.exports, shimRequire, module, file, path.dirname(file)];
  let exit;
  try {  // `this` is module.exports, as in node's wrapper
    const source = fs.readFileSync(file, 'utf8');
    // node's CommonJS wrapper, on the script's first line (line numbers stay those of the file)
    const wrapped = '(function (exports, require, module, __filename, __dirname) {' + source +
      '\n}).apply(globalThis.__holdemBatchArgs[0], globalThis.__holdemBatchArgs.splice(0));';
    vm.runInContext(wrapped, context, { filename: file, timeout: TIMEOUT_MS });
    exit = typeof shimProcess.exitCode === 'number' ? shimProcess.exitCode : 0;
  } catch (e) {
    stderr.push(e && e.stack ? String(e.stack) : 'Uncaught ' + util.inspect(e));
    exit = 1;
  }
  return { file, exit, stdout: stdout.join('\n') + (stdout.length ? '\n' : ''), stderr: stderr.join('\n') };
}

const lines = fs.readFileSync(0, 'utf8').split('\n').filter(l => l.trim());
for (const line of lines) {
  const { file } = JSON.parse(line);
  process.stdout.write(JSON.stringify(runOne(file)) + '\n');
}
