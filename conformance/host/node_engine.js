'use strict';
/*
 * The V8 host of a JavaScript engine or bot (conformance/host/node_worker.py): `node node_engine.js`,
 * one process per engine or per seat, speaking the QuickJS worker's JSON-lines protocol
 * (worker_process.py) in mode "engine" (init, call, evalFn, ping, stop) or "bot" (also act). In mode
 * "bot" the realm is a classic Web Worker's global (ruling R39): the Web-Worker members' script
 * (worker_globals.py, sent as init.globals) is evaluated in it before the bootstrap, and code
 * generation from strings is off behind the bootstrap's guards of eval and Function. The parent
 * enforces every wall-clock deadline and kills this process's group; node runs under its permission model (no file system beyond this file, no
 * child processes, no worker threads, no native addons, no inspector) and a heap limit. With
 * --coverage this file (never the engine) opens the inspector: a node without --allow-inspector
 * refuses it under the permission model, and then runs without that model (node_worker.py).
 *
 * The engine, its adapter and the suite's driver run in a vm context of their own (a fresh realm:
 * none of node's globals, no `require`, no `process`), built on a prototype-less sandbox so that no
 * object of this realm is reachable from it; only strings and numbers cross (in mode "bot" the
 * bootstrap also keeps, in its closure, a function of this realm that evaluates the driver's own
 * lookups: code generation from strings is off for the realm itself). The environment is the
 * QuickJS worker's: the same bootstrap (worker_bootstrap.js, sent in the init request) installs the
 * same guards, seeded Math.random and shims, and answers the same requests with the same texts.
 */
const vm = require('vm');
const fs = require('fs');
const { StringDecoder } = require('string_decoder');

// Captured before anything else runs: nothing the engine does can reach these.
const readSync = fs.readSync, writeSync = fs.writeSync, bufferFrom = Buffer.from;
const cpuUsage = process.cpuUsage.bind(process);
const exit = process.exit.bind(process);
function write(text) {  // a blocking write of the whole text (node's stdout stream is not loaded)
  const bytes = bufferFrom(text, 'utf8');
  for (let done = 0; done < bytes.length;) done += writeSync(1, bytes, done, bytes.length - done);
}
const jsonParse = JSON.parse, jsonQuote = JSON.stringify;
// Defence in depth: this realm keeps no network or timer entry points by name either.
for (const name of ['fetch', 'WebSocket', 'EventSource', 'Request', 'Response', 'Headers', 'FormData']) {
  try { delete globalThis[name]; } catch (e) { /* not configurable */ }
}

function send(text) { write(text + '\n'); }
function error(category, message, extra) {
  return Object.assign({ category, message }, extra || {});
}
function protocol(message) { return jsonQuote({ ok: false, error: error('protocol', message) }); }

let ctx = null, host = null, mode = null;
// --coverage (conformance/judge/coverage.py): V8's precise block coverage through the in-process
// inspector, started before the engine compiles; only the engine's script (filename "engine") is sent.
let coverage = null;

function startCoverage() {
  let inspector;
  try {
    inspector = require('inspector');
    coverage = new inspector.Session();
    coverage.connect();
  } catch (e) {
    coverage = null;
    return 'coverage: the inspector is refused here (' + String(e && e.message) + ')';
  }
  let failure = null;  // an in-process session answers synchronously
  coverage.post('Profiler.enable', (e) => { if (e) failure = e.message; });
  coverage.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true }, (e) => { if (e) failure = e.message; });
  return failure === null ? null : 'coverage: ' + failure;
}

function takeCoverage() {
  if (coverage === null) return protocol('coverage: this host was not started with coverage');
  let out = null, failure = 'no answer';
  coverage.post('Profiler.takePreciseCoverage', (e, r) => { if (e) failure = e.message; else out = r; });
  if (out === null) return protocol('coverage: ' + failure);
  // The engine's script: the first compiled of those named "engine" (an eval's sourceURL could name another).
  let engine = null;
  for (const script of out.result) {
    if (script.url === 'engine' && (engine === null || Number(script.scriptId) < Number(engine.scriptId))) engine = script;
  }
  return jsonQuote({ ok: true, value: engine === null ? [] : engine.functions });
}

function textOf(get) {
  try { const v = get(); return typeof v === 'string' ? v : null; } catch (e) { return null; }
}
function cut(s, max) {  // well-formed, as the bootstrap's texts: a lone surrogate becomes U+FFFD
  const t = s.length <= max ? s : s.slice(0, max) + '\u2026 (' + (s.length - max) + ' more characters)';
  return t.toWellFormed();
}

// A script that failed to load, in the words worker_process.py gives for QuickJS (the messages are V8's).
function loadError(e, source, compiling, maxText) {
  const isObject = e !== null && (typeof e === 'object' || typeof e === 'function');
  if (!isObject) {
    let s;
    try { s = String(e); } catch (x) { s = '(unprintable)'; }
    return error('throw', cut(s, maxText), { source, name: null });
  }
  const name = textOf(() => e.name), message = textOf(() => e.message) || '';
  if (compiling && name === 'SyntaxError') {
    // node's decorated stack of a compile error starts "FILE:LINE\n<source line>\n   ^^^".
    const stack = textOf(() => e.stack) || '';
    const m = /^[^\n]*:(\d+)\n([^\n]*)\n( *)\^/.exec(stack);
    const where = m ? ' (line ' + m[1] + ', column ' + (m[3].length + 1) + ')' : '';
    return error('syntax', message + where, { source });
  }
  return error('throw', cut(message, maxText), { source, name: name === null ? null : cut(name, maxText), at: null });
}

function init(req) {
  if (ctx !== null) return jsonQuote({ ok: false, error: error('protocol', 'init was already done') });
  if (typeof req.script !== 'string') return protocol('init.script must be a string');
  if (req.engine !== null && typeof req.engine !== 'string') return protocol('init.engine must be a string or null');
  if (req.mode !== 'engine' && req.mode !== 'bot') return protocol('init.mode must be "engine" or "bot"');
  if (typeof req.bootstrap !== 'string') return protocol('init.bootstrap must be a string');
  if (req.globals != null && typeof req.globals !== 'string') return protocol('init.globals must be a string or null');
  const bot = req.mode === 'bot';
  const limits = req.limits || {};
  const seed = req.botSeed;
  if (!Number.isInteger(seed) || seed < 0 || seed > 4294967295) return protocol('init.botSeed must be an integer in 0..4294967295');
  // A fresh realm with no code generation from WebAssembly (QuickJS has none).
  // Promise jobs run only when a script's evaluation ends (at load), never after a call: QuickJS runs none.
  // A bot's realm has an ordinary global object (DONT_CONTEXTIFY, node 20.18 and 22.8 on): a
  // contextified one answers every global variable through interceptors, so a loop reading a
  // top-level `var` ran 25x slower than in a browser.
  const plain = bot && vm.constants && vm.constants.DONT_CONTEXTIFY;
  ctx = vm.createContext(plain || Object.create(null), { codeGeneration: { strings: !bot, wasm: false },
                                                         microtaskMode: 'afterEvaluate' });
  // QuickJS's own global InternalError (its out-of-memory and interrupt errors), which the bootstrap
  // and the driver name; no WebAssembly, as in QuickJS.
  vm.runInContext("(function () { var I = function InternalError(message) { var e = new Error(message); " +
                  "Object.setPrototypeOf(e, I.prototype); return e; }; I.prototype = Object.create(Error.prototype, " +
                  "{constructor: {value: I, writable: true, configurable: true}, name: {value: 'InternalError', " +
                  "writable: true, configurable: true}}); Object.setPrototypeOf(I, Error); Object.defineProperty(" +
                  "globalThis, 'InternalError', {value: I, writable: true, configurable: true}); " +
                  "delete globalThis.WebAssembly; })()", ctx);
  if (req.coverage === true) {
    const refused = startCoverage();
    if (refused !== null) return protocol(refused);
  }
  const maxText = limits.text;
  // V8's code cache of the suite's own scripts (node_code_cache.py): init.codeCache gives what an
  // earlier child produced for the same texts and flags (V8 checks both and else compiles afresh);
  // init.makeCodeCache asks for it, and such an init loads no bot (the cache holds only our code).
  const cache = req.codeCache && typeof req.codeCache === 'object' ? req.codeCache : {};
  const scripts = {};
  function compiled(key, text, filename) {
    const data = typeof cache[key] === 'string' ? Buffer.from(cache[key], 'base64') : undefined;
    return (scripts[key] = new vm.Script(text, data === undefined ? { filename } : { filename, cachedData: data }));
  }
  if (typeof req.globals === 'string') {
    try { compiled('globals', req.globals, 'worker_globals.js').runInContext(ctx); } catch (e) {
      return jsonQuote({ ok: false, error: error('internal', "the worker's globals failed: " + String(e && e.message)) });
    }
  }
  // With code generation off the bootstrap's own lookups (a global binding by name, evalFn's source:
  // the parent's text, never the bot's) are evaluated from here; the function stays in its closure.
  const evaluate = bot ? (text) => vm.runInContext(text, ctx, { filename: 'driver' }) : undefined;
  host = compiled('bootstrap', req.bootstrap, 'worker_bootstrap.js').runInContext(ctx)(
    seed, Infinity, limits.answer, maxText, limits.name, bot, 'node', evaluate);
  // A bot's global is a browser's (R39): the bootstrap has captured QuickJS's InternalError, which V8's
  // browsers do not have, so a bot's "am I in QuickJS?" test answers as in Chrome.
  if (bot) vm.runInContext('delete globalThis.InternalError;', ctx);
  for (const [source, text, filename] of [['engine', req.engine, 'engine'], ['script', req.script, bot ? 'bot' : 'adapter']]) {
    if (source === 'script' && req.makeCodeCache === true) return madeCodeCache(scripts);
    if (source === 'script') host('watch', '');
    if (text === null) continue;
    let script;
    try { script = source === 'engine' ? compiled('engine', text, filename) : new vm.Script(text, { filename }); } catch (e) {
      host = null;
      return jsonQuote({ ok: false, error: loadError(e, source, true, maxText) });
    }
    try { script.runInContext(ctx); } catch (e) {
      const failure = loadError(e, source, false, maxText);
      host = null;
      return jsonQuote({ ok: false, error: failure });
    }
  }
  const response = host('finish', req.mode);
  if (jsonParse(response).ok === true) mode = req.mode; else host = null;
  return response;
}

// The code cache of the scripts init ran (after running: the functions they called are in it too);
// the worker then refuses every request but stop.
function madeCodeCache(scripts) {
  host = null;
  const value = {};
  for (const key of Object.keys(scripts)) value[key] = scripts[key].createCachedData().toString('base64');
  return jsonQuote({ ok: true, value });
}

function handle(op, req, line) {
  if (op === 'init') return init(req);
  if (host === null) return protocol(op + ' before a successful init');
  if (op === 'coverage') return takeCoverage();
  if (op === 'call' || op === 'evalFn') {
    const key = op === 'call' ? 'path' : 'source';
    if (typeof req[key] !== 'string' || !req[key]) return protocol(op + '.' + key + ' must be a non-empty string');
    if (!Array.isArray(req.args)) return protocol(op + '.args must be an array');
  } else if (op === 'act') {
    if (mode !== 'bot') return protocol('act needs mode "bot"');
    if (!Object.prototype.hasOwnProperty.call(req, 'state')) return protocol('act.state is missing');
  } else {
    return protocol('unknown op ' + jsonQuote(op));
  }
  try {
    const out = host(op, line);
    return typeof out === 'string' ? out : jsonQuote({ ok: false, error: error('internal', 'the dispatcher returned a non-string') });
  } catch (e) {
    let first;
    try { first = String(e && e.message); } catch (x) { first = '(unprintable)'; }
    return jsonQuote({ ok: false, error: error('internal', 'the dispatcher failed: ' + first) });
  }
}

const ACT_PREFIX = '{"op":"act",';

function serve(line) {
  let req, op;
  if (line.startsWith(ACT_PREFIX)) {
    // The parent writes act requests with this exact prefix; the bootstrap parses the line itself,
    // so parsing the (large) state here too would only cost time.
    req = { op: 'act', state: null };
    op = 'act';
  } else try {
    req = jsonParse(line);
    op = req.op;
    if (typeof op !== 'string') throw new Error('no op');
  } catch (e) {
    send(protocol('a request must be a JSON object with an op'));
    return;
  }
  if (op === 'stop') { send('{"ok":true}'); exit(0); }
  if (op === 'ping') { send('{"ok":true}'); return; }
  const cpu0 = cpuUsage();
  let out;
  try { out = handle(op, req, line); } catch (e) {
    out = jsonQuote({ ok: false, error: error('internal', String(e && e.message)) });
  }
  const used = cpuUsage(cpu0);
  // init also says what the process's start-up cost before it (node, V8): the certification's CPU-time
  // budget counts a worker's whole CPU time (conformance/bots/bounds.py), as the QuickJS worker's says
  const start = op === 'init' ? ',"startCpuMs":' + ((cpu0.user + cpu0.system) / 1000).toFixed(3) : '';
  send(out.slice(0, -1) + ',"cpuMs":' + ((used.user + used.system) / 1000).toFixed(3) + start + '}');
}

send('{"ok":true,"ready":true}');
// Requests are read with blocking reads of stdin, a line at a time: no event loop turns between them
// (nothing here needs one: the realm runs no jobs after a call, as QuickJS runs none), and node's
// stream machinery costs neither the start-up nor any request its time (issue #35, speed).
const decoder = new StringDecoder('utf8');
const chunk = Buffer.allocUnsafe(1 << 16);
const pause = new Int32Array(new SharedArrayBuffer(4));
let pieces = [];  // of the line being read: a long line (init's scripts) is joined once, not rescanned
for (;;) {
  let n;
  try { n = readSync(0, chunk, 0, chunk.length, null); } catch (e) {
    if (e && e.code === 'EAGAIN') { Atomics.wait(pause, 0, 0, 1); continue; }  // a non-blocking stdin
    if (e && e.code === 'EOF') exit(0);
    throw e;
  }
  if (n === 0) exit(0);  // the parent closed our stdin
  let text = decoder.write(chunk.subarray(0, n)), end;
  while ((end = text.indexOf('\n')) >= 0) {
    pieces.push(text.slice(0, end));
    const line = pieces.length === 1 ? pieces[0] : pieces.join('');
    pieces = [];
    text = text.slice(end + 1);
    serve(line);
  }
  if (text.length > 0) pieces.push(text);
}
