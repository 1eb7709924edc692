'use strict';
/*
 * Timing a bot in V8, the engine of the browsers the arena runs in (conformance/host/node_timing.py).
 *
 * Run as `node node_timing.js` by the Python parent, which kills this whole process group at its own
 * wall-clock deadline: this process is only trusted to measure. The main thread speaks JSON lines on
 * stdin/stdout; the bot runs in one worker_threads Worker (one per bot, as one Web Worker per seat),
 * terminated at the decision deadline like the arena terminates a late worker.
 *
 * Requests:  {"op":"start","engine":SRC,"script":SRC,"botSeed":N,"initMs":MS,"memoryMb":N,"polyfill":[PATH...]}
 *            {"op":"act","state":TEXT,"timeoutMs":MS}   (state: the JSON text the bot receives)
 * Responses: {"kind":"ok","ms":T[,"answer":A]} | {"kind":"threw","ms":T,"message":M} | {"kind":"late","ms":T}
 *            | {"kind":"error","ms":T,"message":M}
 * (answer: a string answer, else its typeof: only to show the bot ran, the QuickJS battery judges it;
 * threw: the bot's act threw, which is no decision time: bot_timing compares it with QuickJS)
 * polyfill: core-js module files (conformance/host/node_polyfill.py), required in the bot's worker before
 * anything else, so that it offers the builtins of the QuickJS worker; the init deadline runs from
 * when they are loaded.
 * ms is performance.now() from posting the state to receiving the answer: message delivery, parsing
 * and the bot's computation, as the contract counts decision time.
 */
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

if (isMainThread) {
  main();
} else {
  bot();
}

const ENV_MS = 20000;  // starting the worker and loading the polyfill, on a loaded machine

function main() {
  const { performance } = require('perf_hooks');
  let worker = null;
  let pending = null; // {resolve, timer, t0}
  const reply = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');

  function settle(msg) {
    if (pending === null) return;
    const p = pending;
    pending = null;
    clearTimeout(p.timer);
    p.resolve(Object.assign({ ms: performance.now() - p.t0 }, msg));
  }
  function expire() {
    // Node's timers run on the event loop's millisecond clock, which can fire up to a millisecond
    // before performance.now() says the time is up: never terminate a bot before its deadline.
    const left = pending === null ? 0 : pending.t0 + pending.timeoutMs - performance.now();
    if (left > 0) {
      pending.timer = setTimeout(expire, Math.ceil(left));
      return;
    }
    const w = worker;
    worker = null;
    if (w !== null) w.terminate();
    settle({ kind: 'late' });
  }
  function wait(timeoutMs) {
    return new Promise((resolve) => {
      pending = { resolve, t0: performance.now(), timeoutMs, timer: setTimeout(expire, timeoutMs) };
    });
  }
  function restart(timeoutMs) {
    pending.t0 = performance.now();
    pending.timeoutMs = timeoutMs;
    pending.timer = setTimeout(expire, timeoutMs);
  }
  function start(req) {
    if (worker !== null) worker.terminate();
    worker = new Worker(__filename, {
      workerData: { engine: req.engine, script: req.script, botSeed: req.botSeed >>> 0,
                    polyfill: Array.isArray(req.polyfill) ? req.polyfill : [],
                    globals: typeof req.globals === 'string' ? req.globals : null },
      resourceLimits: { maxOldGenerationSizeMb: req.memoryMb, stackSizeMb: 4 },
      stdout: true, stderr: true, // the bot's console is silent; the worker's own output is dropped
    });
    const w = worker;
    w.on('message', (m) => {
      if (m && m.kind === 'env') {  // the polyfill is loaded: the bot's init deadline starts now
        if (pending !== null && worker === w) { clearTimeout(pending.timer); restart(req.initMs); }
        return;
      }
      settle(m);
    });
    w.on('error', (e) => {
      if (worker === w) worker = null;
      settle({ kind: 'error', message: String(e && e.message).slice(0, 300) });
    });
    w.on('exit', () => { if (worker === w) worker = null; settle({ kind: 'error', message: 'the worker exited' }); });
    // Loading the polyfill is not the bot's: its own deadline (ENV_MS) until the worker says 'env'.
    return wait(req.polyfill && req.polyfill.length ? ENV_MS : req.initMs);
  }
  function act(req) {
    if (worker === null) return Promise.resolve({ kind: 'error', ms: 0, message: 'no live worker' });
    const done = wait(req.timeoutMs);
    worker.postMessage(req.state);
    return done;
  }

  let chain = Promise.resolve();
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      chain = chain.then(() => {
        let req;
        try { req = JSON.parse(line); } catch (e) { return { kind: 'error', ms: 0, message: 'bad request' }; }
        return req.op === 'start' ? start(req) : act(req);
      }).then(reply);
    }
  });
  process.stdin.on('end', () => chain.then(() => process.exit(0)));
}

// ---- the bot's thread: the contract's worker environment, as conformance/host/worker_process.py builds it ----
function bot() {
  const vm = require('vm');
  const port = parentPort;
  const G = globalThis;
  const { engine, script, botSeed, polyfill, globals } = workerData;
  // The builtins of the QuickJS worker that node lacks, from core-js (node_polyfill.py), before the
  // environment is built. core-js wraps Function.prototype.toString (to show its functions as
  // native code); the native one is put back, so that no builtin node has is replaced.
  if (polyfill.length) {
    const nativeToString = Function.prototype.toString;
    try {
      for (const file of polyfill) require(file);
    } catch (e) {
      port.postMessage({ kind: 'error', message: 'polyfill: ' + String(e && e.message).slice(0, 300) });
      return;
    }
    Object.defineProperty(Function.prototype, 'toString', { value: nativeToString, writable: true,
                                                            enumerable: false, configurable: true });
    delete G['__core-js_shared__'];
    port.postMessage({ kind: 'env' });
  }
  const hide = (obj, key, value) =>
    Object.defineProperty(obj, key, { value, writable: true, enumerable: false, configurable: true });
  const forbidden = (what) => function () { throw new Error('contract violation: ' + what); };
  // Node's own globals are not a browser worker's: a bot must not find them here either. Node 24's
  // fetch-family globals load lazily and need Buffer then: load them before it goes.
  for (const name of ['FormData', 'Headers', 'Request', 'Response', 'MessageEvent', 'CloseEvent', 'WebSocket']) {
    try { void G[name]; } catch (e) { /* absent on this node */ }
  }
  for (const name of ['process', 'Buffer', 'global', 'require', 'setImmediate', 'clearImmediate',
                      'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'queueMicrotask',
                      'structuredClone', 'fetch', 'performance']) {
    try { delete G[name]; } catch (e) { /* not configurable: left as it is */ }
  }
  // The bot worker's Web-Worker members (R39, worker_globals.py): structuredClone made in this realm
  // (node's own was deleted above); node's TextEncoder, atob, ... are kept as they are.
  if (globals !== null) {
    try { vm.runInThisContext(globals, { filename: 'worker_globals.js' }); } catch (e) {
      port.postMessage({ kind: 'error', message: 'globals: ' + String(e && e.message).slice(0, 300) });
      return;
    }
  }
  // The worker's guards (dynamic code, clocks, timers) throw as the QuickJS worker's do.
  hide(G, 'eval', forbidden('eval'));
  const FunctionGuard = forbidden('Function constructor');
  FunctionGuard.prototype = Function.prototype;  // as the QuickJS worker's guard: `f instanceof Function` holds
  hide(G, 'Function', FunctionGuard);
  hide(Function.prototype, 'constructor', G.Function);
  hide(G, 'setTimeout', forbidden('setTimeout'));
  hide(G, 'setInterval', forbidden('setInterval'));
  const DateGuard = forbidden('Date');
  DateGuard.now = forbidden('Date.now()');
  DateGuard.parse = forbidden('Date.parse()');
  DateGuard.UTC = forbidden('Date.UTC()');
  DateGuard.prototype = Date.prototype;
  hide(G, 'Date', DateGuard);
  hide(G, 'window', G);
  hide(G, 'self', G);
  const noop = function () {};
  const silent = {};
  for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table', 'assert']) silent[m] = noop;
  hide(G, 'console', silent);
  let a = botSeed;  // mulberry32, as the QuickJS worker seeds it (ruling R21)
  hide(Math, 'random', function random() {
    a = (a + 0x6D2B79F5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  });
  const exportsObject = {};
  hide(G, 'module', { exports: exportsObject });
  hide(G, 'exports', exportsObject);
  const post = port.postMessage.bind(port);
  const parse = JSON.parse;
  try {
    vm.runInThisContext(engine, { filename: 'poker-engine.js' });
    vm.runInThisContext(script, { filename: 'bot.js' });
  } catch (e) {
    post({ kind: 'error', message: 'load: ' + String(e && e.message).slice(0, 300) });
    return;
  }
  const exported = G.module.exports;
  const act = typeof exported === 'function' ? exported : exported && exported.act;
  const self = typeof exported === 'function' ? undefined : exported;
  if (typeof act !== 'function') {
    post({ kind: 'error', message: 'load: the script does not export a bot' });
    return;
  }
  port.on('message', (text) => {
    let answer;
    // The answer is read as the worker reads it (then, type, amount), inside the decision's time: a
    // browser's structured clone of the posted message reads it too (R33; a getter that never returns
    // is late).
    try {
      answer = act.call(self, parse(text));
      if (answer !== null && typeof answer === 'object') { void answer.then; void answer.type; void answer.amount; }
    } catch (e) {
      let message;
      try { message = e instanceof Error ? e.name + ': ' + e.message : 'a thrown ' + typeof e; } catch (x) { message = 'a thrown value'; }
      post({ kind: 'threw', message: String(message).slice(0, 300) });
      return;
    }
    // Only a short string goes back: the parent reads bounded lines, and node only times.
    post({ kind: 'ok', answer: typeof answer === 'string' ? answer.slice(0, 100) : typeof answer });
  });
  post({ kind: 'ok' });
}
