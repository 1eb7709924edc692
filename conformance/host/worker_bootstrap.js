// The worker's bootstrap: conformance/host/worker_process.py evaluates it before the bot's script
// (conformance/host/node_engine.js on the V8 host). `workerScope`: a bot's worker, whose global is a
// browser's classic worker's (R39), not an engine's; `hostName` ("quickjs" or "node") names the host
// in the errors of what it cannot give (R39); `evaluate`, when given, evaluates a script's text at
// global scope in this realm (the V8 host, where code generation from strings is off for the bot).
(function (botSeed, scriptLines, MAX_ANSWER_CHARS, MAX_TEXT_CHARS, MAX_NAME_CHARS, workerScope, hostName, evaluate) {
  'use strict';
  var G = globalThis;
  // Intrinsics captured before untrusted code runs: later patches of the
  // globals by a script must not change what we transport.
  var apply = Reflect.apply, ownKeys = Object.keys, isArray = Array.isArray,
      defineProperty = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf, createObject = Object.create,
      jsonParse = JSON.parse, jsonQuote = JSON.stringify, imul = Math.imul,
      split = String.prototype.split, join = Array.prototype.join, regexpExec = RegExp.prototype.exec,
      ErrorCtor = Error, InternalErrorCtor = InternalError, SyntaxErrorCtor = SyntaxError,
      StringCtor = String, BigIntCtor = BigInt, evalIntrinsic = typeof evaluate === 'function' ? evaluate : G.eval,
      symbolDescription = Object.getOwnPropertyDescriptor(Symbol.prototype, 'description').get,
      bigintToString = BigInt.prototype.toString, stringSlice = String.prototype.slice,
      toWellFormed = String.prototype.toWellFormed, ownDescriptor = Object.getOwnPropertyDescriptor,
      ownPropertyKeys = Reflect.ownKeys, hasOwn = Object.hasOwn, sameValue = Object.is,
      isExtensible = Object.isExtensible, lookupGetter = Object.prototype.__lookupGetter__,
      lookupSetter = Object.prototype.__lookupSetter__;
  var IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
  // Writing an element by assignment would meet a setter (or a getter without one) that a bot put on
  // Array.prototype or Object.prototype; the harness's arrays written after the bot has run get
  // their elements by definition, with a descriptor that inherits nothing.
  var ELEMENT = createObject(null);
  ELEMENT.writable = true; ELEMENT.enumerable = true; ELEMENT.configurable = true;
  function put(a, i, v) { ELEMENT.value = v; defineProperty(a, i, ELEMENT); ELEMENT.value = undefined; }
  function append(a, v) { put(a, a.length, v); }
  var MAX_DEPTH = 32, MAX_NODES = 100000, MAX_VIOLATIONS = 100;
  // R34 (conformance/host/bounds.py): what a bot says crosses to Python bounded and as Unicode text. A
  // string in an answer longer than MAX_ANSWER_CHARS is not read ("toolong"); a message, name or
  // description longer than MAX_TEXT_CHARS (an exported name: MAX_NAME_CHARS) is cut.

  // ---- violations -------------------------------------------------------
  var violations = [], droppedViolations = 0;
  var VIOLATION_NAME = createObject(null);
  VIOLATION_NAME.value = 'ContractViolation'; VIOLATION_NAME.writable = true; VIOLATION_NAME.configurable = true;
  function violation(kind, detail, extra) {
    if (violations.length < MAX_VIOLATIONS) {
      append(violations, '{"kind":' + jsonQuote(kind) + ',"detail":' + jsonQuote(detail) + (extra || '') + '}');
    } else {
      droppedViolations++;
    }
    var e = new ErrorCtor('contract violation: ' + detail);
    defineProperty(e, 'name', VIOLATION_NAME);
    return e;
  }
  function drainViolations() {
    if (watching) checkAll();
    if (violations.length === 0) return '';
    if (droppedViolations > 0) {
      append(violations, '{"kind":"dropped","detail":' +
        jsonQuote(droppedViolations + ' further violations not listed') + '}');
    }
    var text = ',"violations":[';
    for (var i = 0; i < violations.length; i++) text += (i ? ',' : '') + violations[i];
    violations = []; droppedViolations = 0;
    return text + ']';
  }

  // A lone UTF-16 surrogate becomes U+FFFD (as TextEncoder does): Python's str cannot encode it.
  function wellFormed(s) { return apply(toWellFormed, s, []); }
  // JSON text of a string from the bot, at most `max` characters of it.
  function bounded(s, max) {
    if (s.length <= max) return jsonQuote(wellFormed(s));
    return jsonQuote(wellFormed(apply(stringSlice, s, [0, max])) + '\u2026 (' + (s.length - max) + ' more characters)');
  }

  // ---- the definers, marked --------------------------------------------------
  // A property becomes an accessor, or changes its attributes, only through these (a Proxy forwards to
  // its target through them too): each call marks the built-ins for a descriptor-level comparison
  // after the decision (checkAll). Each stands in for the native, as a method: same name and length,
  // not a constructor; its own descriptor is the native's.
  var definersCalled = false;
  function markDefiner(holder, key) {
    var native = holder[key];
    var marked = ({[key]() { definersCalled = true; return apply(native, this, arguments); }})[key];
    defineProperty(marked, 'length', {value: native.length, configurable: true});
    var d = ownDescriptor(holder, key);
    d.value = marked;
    defineProperty(holder, key, d);
  }
  markDefiner(Object, 'defineProperty');
  markDefiner(Object, 'defineProperties');
  markDefiner(Reflect, 'defineProperty');
  markDefiner(Object.prototype, '__defineGetter__');
  markDefiner(Object.prototype, '__defineSetter__');

  // ---- guards: dynamic code, clocks, timers -------------------------------
  function setHidden(obj, key, value) {
    defineProperty(obj, key, {value: value, writable: true, enumerable: false, configurable: true});
  }
  function guardConstructor(proto, label) {
    var guard = function () { throw violation('Function', label + ' constructor'); };
    defineProperty(guard, 'name', {value: label, configurable: true});
    guard.prototype = proto;       // keeps `f instanceof Function` working
    setHidden(proto, 'constructor', guard);
    return guard;
  }
  setHidden(G, 'Function', guardConstructor(Function.prototype, 'Function'));
  guardConstructor(getPrototypeOf(async function () {}), 'AsyncFunction');
  guardConstructor(getPrototypeOf(function* () {}), 'GeneratorFunction');
  guardConstructor(getPrototypeOf(async function* () {}), 'AsyncGeneratorFunction');
  var evalGuard = function (code) { throw violation('eval', 'eval of a ' + typeof code); };
  defineProperty(evalGuard, 'name', {value: 'eval', configurable: true});
  setHidden(G, 'eval', evalGuard);
  function timer(name) {
    return function (handler) {
      if (typeof handler === 'string') throw violation('eval', name + ' with a string argument');
      throw violation('timer', name + ' (no timers in the worker)');
    };
  }
  setHidden(G, 'setTimeout', timer('setTimeout'));
  setHidden(G, 'setInterval', timer('setInterval'));
  var DateGuard = function Date() { throw violation('Date', new.target ? 'new Date()' : 'Date()'); };
  DateGuard.now = function now() { throw violation('Date', 'Date.now()'); };
  DateGuard.parse = function parse() { throw violation('Date', 'Date.parse()'); };
  DateGuard.UTC = function UTC() { throw violation('Date', 'Date.UTC()'); };
  DateGuard.prototype = Date.prototype;
  setHidden(Date.prototype, 'constructor', DateGuard);
  setHidden(G, 'Date', DateGuard);
  if (workerScope) workerMembers(); else delete G.performance;   // quickjs-ng's clock: absent for an engine

  // ---- what a browser's worker has and the contract forbids (R39) ---------------
  // Present, as in browsers, so that a bot's feature tests see it; a call is a recorded violation that
  // throws, never a real clock, timer, message or entropy.
  function forbidden(holder, name, kind, detail) {
    var f = ({[name]() { throw violation(kind, detail); }})[name];
    setHidden(holder, name, f);
    return f;
  }
  function workerMembers() {
    forbidden(G, 'clearTimeout', 'timer', 'clearTimeout (no timers in the worker)');
    forbidden(G, 'clearInterval', 'timer', 'clearInterval (no timers in the worker)');
    forbidden(G, 'importScripts', 'network', 'importScripts (a bot loads nothing)');
    forbidden(G, 'fetch', 'network', 'fetch (no networking)');
    var performance = {};            // quickjs-ng's own clock is replaced
    forbidden(performance, 'now', 'clock', 'performance.now()');
    forbidden(performance, 'mark', 'clock', 'performance.mark()');
    forbidden(performance, 'measure', 'clock', 'performance.measure()');
    defineProperty(performance, 'timeOrigin', {get: function timeOrigin() { throw violation('clock', 'performance.timeOrigin'); },
                                               enumerable: true, configurable: true});
    setHidden(G, 'performance', performance);
    var crypto = {};
    forbidden(crypto, 'getRandomValues', 'entropy', 'crypto.getRandomValues() (unseeded entropy)');
    forbidden(crypto, 'randomUUID', 'entropy', 'crypto.randomUUID() (unseeded entropy)');
    setHidden(G, 'crypto', crypto);
    // Intl: on the V8 host with the locale and time zone the host pins (en-US, UTC); formatting a date
    // without one is the clock. QuickJS has no Intl: it stays absent (a feature test sees the truth), and
    // the host names Intl, itself and R39 in the error of a bot that uses it (worker.py, unavailable_note).
    if (typeof Intl === 'object' && Intl !== null) {
      var dtf = Intl.DateTimeFormat.prototype, formatGetter = ownDescriptor(dtf, 'format').get;
      defineProperty(dtf, 'format', {get: function format() {
        var bound = apply(formatGetter, this, []);
        return function (date) {
          if (date === undefined) throw violation('clock', 'Intl.DateTimeFormat format() without a date (the current time)');
          return bound(date);
        };
      }, enumerable: false, configurable: true});
      var formatToParts = dtf.formatToParts;
      setHidden(dtf, 'formatToParts', function formatToParts(date) {
        if (date === undefined) throw violation('clock', 'Intl.DateTimeFormat formatToParts() without a date (the current time)');
        return apply(formatToParts, this, [date]);
      });
    }
    // The Web-Worker members (worker_globals.py) where the host could not load them.
    var members = ['structuredClone', 'atob', 'btoa', 'DOMException', 'TextEncoder', 'TextDecoder'];
    for (var w = 0; w < members.length; w++) {
      if (typeof G[members[w]] === 'undefined') {
        forbiddenMissing(members[w]);
      }
    }
  }
  function forbiddenMissing(name) {
    setHidden(G, name, ({[name]() {
      throw new ErrorCtor(name + ' is not available on the ' + hostName + ' host here: core-js could not be ' +
                          'installed (ruling R39; docs/bot-certification.md)');
    }})[name]);
  }

  // ---- the contract's worker environment, in the contract's order ----------
  setHidden(G, 'window', G);
  setHidden(G, 'self', G);
  var noop = function () {};
  var console = {};
  var methods = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table', 'assert'];
  for (var m = 0; m < methods.length; m++) console[methods[m]] = noop;
  setHidden(G, 'console', console);
  var a = botSeed >>> 0;           // mulberry32, one persistent stream per worker
  setHidden(Math, 'random', function random() {
    a = (a + 0x6D2B79F5) | 0;
    var t = imul(a ^ (a >>> 15), 1 | a);
    t = (t + imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  });
  var initialExports = {};
  setHidden(G, 'module', {exports: initialExports});
  setHidden(G, 'exports', initialExports);
  // A classic worker's messaging: the harness's handler, and a postMessage a bot must not use.
  setHidden(G, 'onmessage', function onmessage() {});
  var postMessageGuard = function () { throw violation('message', 'postMessage (a bot sends no protocol messages)'); };
  defineProperty(postMessageGuard, 'name', {value: 'postMessage', configurable: true});
  setHidden(G, 'postMessage', postMessageGuard);

  // ---- worker globals, watched by identity (R35) ---------------------------------
  // "Do not ... overwrite worker globals." Every own property of the global object and of the
  // namespaces below is captured here (after the engine loads, before the bot), out of the bot's
  // reach, and compared -- same value, same getter and setter, by Object.is -- after loading and
  // after every decision, so no patched toString, computed name or alias can hide a change.
  // `exports` is captured after loading: `exports = module.exports = f` is the CommonJS idiom.
  var watched = [], watchedLabels = [], reported = createObject(null), watching = false;
  function watch(obj, label) {
    watchedLabels[watchedLabels.length] = label;
    var keys = ownPropertyKeys(obj);
    for (var i = 0; i < keys.length; i++) {
      var k = keys[i];
      if (obj === G && k === 'exports') continue;
      watchKey(obj, k, (obj === G ? '' : label + '.') + (typeof k === 'symbol' ? '[' + StringCtor(k) + ']' : k));
    }
  }
  function watchKey(obj, key, name) {
    var d = ownDescriptor(obj, key);
    if (d === undefined) return;
    var data = hasOwn(d, 'value');
    append(watched, {obj: obj, key: key, name: name, data: data,
                     value: data ? d.value : undefined, get: data ? undefined : d.get,
                     set: data ? undefined : d.set});
  }
  function watchGlobals() {
    watch(G, 'globalThis');
    var namespaces = [[Math, 'Math'], [JSON, 'JSON'], [Reflect, 'Reflect'], [Object, 'Object'],
                      [console, 'console'], [Function.prototype, 'Function.prototype']];
    var pe = ownDescriptor(G, 'PokerEngine');
    if (pe === undefined) {
      try { pe = {value: evalIntrinsic("typeof PokerEngine === 'undefined' ? undefined : PokerEngine")}; } catch (e) {}
    }
    if (pe !== undefined && pe.value !== null && (typeof pe.value === 'object' || typeof pe.value === 'function')) {
      namespaces[namespaces.length] = [pe.value, 'PokerEngine'];
    }
    for (var i = 0; i < namespaces.length; i++) watch(namespaces[i][0], namespaces[i][1]);
  }
  function watchedField() {
    var text = ',"watched":[';
    for (var i = 0; i < watchedLabels.length; i++) text += (i ? ',' : '') + jsonQuote(watchedLabels[i]);
    return text + ']';
  }
  // An R35 entry's change: by identity of value, getter and setter (not attributes), as since #19.
  function globalChanged(w, d) {
    if (d === undefined) return ' was deleted';
    var same = w.data ? hasOwn(d, 'value') && sameValue(d.value, w.value)
                      : !hasOwn(d, 'value') && d.get === w.get && d.set === w.set;
    return same ? null : ' was overwritten';
  }
  function reportGlobal(w, what) {
    reported[w.name] = true;
    violation('global', w.name + what + ' (worker globals must not be overwritten)', ',"global":' + jsonQuote(w.name));
  }

  // ---- the standard built-ins, by descriptor (R35, #26) ----------------------------
  // Every standard constructor and namespace (the global object's capitalised names but PokerEngine),
  // its prototype, their prototypes and the hidden intrinsics (iterator, generator and typed-array
  // prototypes), captured with the globals before the bot runs: for each object its extensibility,
  // its prototype and its own keys (symbols too), for each own property of it that R35 does not
  // already watch its value, getter, setter and attributes. Any addition, deletion or redefinition is
  // a violation of kind `intrinsic` naming the property ("Array.prototype[0] defined").
  //
  // After every decision the cheap part runs: extensibility, prototype and key count of each object,
  // every data property's value read directly, every accessor's getter and setter looked up (no
  // descriptor objects, no bot code: a data property becomes an accessor only through the marked
  // definers). The descriptor-level comparison runs after loading, after a decision in which a
  // definer was called or the cheap part saw a change, and every FULL_EVERY decisions (attributes
  // changed without a definer: a class field defined through a constructor's return override).
  var FULL_EVERY = 64;
  var holders = [], holderLabels = [], holderExtensible = [], holderProto = [], holderCount = [],
      holderKnown = [], holderCounted = [];
  var intrinsic = [], checks = 0, dataObjects = [], dataKeys = [], dataValues = [];
  var IDENTIFIER_KEY = /^[A-Za-z_$][\w$]*$/, INDEX_KEY = /^(0|[1-9]\d*)$/;
  function propertyName(label, k) {
    if (typeof k === 'symbol') {
      var d = apply(symbolDescription, k, []);
      return label + '[' + (d === undefined ? 'Symbol()' : d) + ']';
    }
    if (apply(regexpExec, IDENTIFIER_KEY, [k])) return label + '.' + k;
    return label + '[' + (apply(regexpExec, INDEX_KEY, [k]) ? k : jsonQuote(k)) + ']';
  }
  function flagsOf(d) {
    return (hasOwn(d, 'value') ? (d.writable ? 1 : 0) : 8) | (d.enumerable ? 2 : 0) | (d.configurable ? 4 : 0);
  }
  function watchIntrinsics() {
    var seen = new Set(), queue = [], labels = [], i;
    var r35 = new Map();                       // object -> {key: true} of the R35 entries
    for (i = 0; i < watched.length; i++) {
      var keys = r35.get(watched[i].obj);
      if (keys === undefined) { keys = createObject(null); r35.set(watched[i].obj, keys); }
      keys[watched[i].key] = true;
    }
    function add(o, label) {
      if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) return;
      seen.add(o); queue[queue.length] = o; labels[labels.length] = label;
    }
    add(G, 'globalThis');
    var names = ownPropertyKeys(G);
    for (i = 0; i < names.length; i++) {
      var n = names[i];
      if (typeof n !== 'string' || !apply(regexpExec, /^[A-Z]/, [n]) || n === 'PokerEngine') continue;
      var d = ownDescriptor(G, n);
      if (hasOwn(d, 'value')) add(d.value, n);
    }
    var hidden = [
      [getPrototypeOf(Int8Array), '%TypedArray%'],
      [getPrototypeOf([][Symbol.iterator]()), '%ArrayIteratorPrototype%'],
      [getPrototypeOf(new Map()[Symbol.iterator]()), '%MapIteratorPrototype%'],
      [getPrototypeOf(new Set()[Symbol.iterator]()), '%SetIteratorPrototype%'],
      [getPrototypeOf(''[Symbol.iterator]()), '%StringIteratorPrototype%'],
      [getPrototypeOf(/a/g[Symbol.matchAll]('')), '%RegExpStringIteratorPrototype%'],
      [getPrototypeOf(function* () {}), '%GeneratorFunction.prototype%'],
      [getPrototypeOf(async function () {}), '%AsyncFunction.prototype%'],
      [getPrototypeOf(async function* () {}), '%AsyncGeneratorFunction.prototype%']];
    try { hidden[hidden.length] = [getPrototypeOf([].values().map(function (x) { return x; })), '%IteratorHelperPrototype%']; } catch (e) {}
    try { hidden[hidden.length] = [getPrototypeOf(Iterator.from({next: function () {}})), '%WrapForValidIteratorPrototype%']; } catch (e) {}
    for (i = 0; i < hidden.length; i++) add(hidden[i][0], hidden[i][1]);
    // The closure: each constructor's prototype (first, so that Object.prototype is named so), then
    // every object's prototype.
    function addPrototypeProperty(o, label) {
      var p = ownDescriptor(o, 'prototype');
      if (o !== G && p !== undefined && hasOwn(p, 'value')) add(p.value, label + '.prototype');
    }
    for (i = 0; i < queue.length; i++) addPrototypeProperty(queue[i], labels[i]);
    for (i = 0; i < queue.length; i++) {
      addPrototypeProperty(queue[i], labels[i]);
      add(getPrototypeOf(queue[i]), 'Object.getPrototypeOf(' + labels[i] + ')');
      if (queue[i] === G) continue;
      var own = ownPropertyKeys(queue[i]);   // plain objects held by a built-in: Array.prototype[Symbol.unscopables]
      for (var m = 0; m < own.length; m++) {
        var od = ownDescriptor(queue[i], own[m]);
        if (hasOwn(od, 'value') && od.value !== null && typeof od.value === 'object') add(od.value, propertyName(labels[i], own[m]));
      }
    }
    for (i = 0; i < watched.length; i++) {   // R35's data entries are read by the cheap part too
      if (!watched[i].data) continue;
      dataObjects[dataObjects.length] = watched[i].obj; dataKeys[dataKeys.length] = watched[i].key;
      dataValues[dataValues.length] = watched[i].value;
    }
    for (i = 0; i < queue.length; i++) {
      var obj = queue[i], ks = ownPropertyKeys(obj), known = createObject(null), skip = r35.get(obj);
      for (var j = 0; j < ks.length; j++) {
        var k = ks[j];
        known[k] = true;
        if (obj === G || (skip !== undefined && skip[k] === true)) continue;   // R35's, or a global name
        var desc = ownDescriptor(obj, k), data = hasOwn(desc, 'value');
        intrinsic[intrinsic.length] = {obj: obj, key: k, name: propertyName(labels[i], k), data: data,
                                       value: data ? desc.value : undefined, get: data ? undefined : desc.get,
                                       set: data ? undefined : desc.set, flags: flagsOf(desc)};
        if (data) { dataObjects[dataObjects.length] = obj; dataKeys[dataKeys.length] = k; dataValues[dataValues.length] = desc.value; }
      }
      holders[i] = obj; holderLabels[i] = labels[i]; holderExtensible[i] = isExtensible(obj);
      holderProto[i] = getPrototypeOf(obj); holderCount[i] = ks.length; holderKnown[i] = known;
      holderCounted[i] = obj !== G && obj !== console;   // a bot's top-level names are globals of its own
    }
  }
  function reportIntrinsic(name, what) {
    if (reported[name + what] === true) return;
    reported[name + what] = true;
    violation('intrinsic', name + ' ' + what + ' (the standard built-ins must not be changed)',
              ',"intrinsic":' + jsonQuote(name));
  }
  // Whether anything may have changed, without descriptor objects and without running bot code: the
  // objects' extensibility, prototype and key count, and every data property's value read directly
  // (parallel arrays: the fastest reads). Accessors are not read: one is replaced, or a data property
  // made one, only through a definer; a class field over an accessor (a return override) is found by
  // the periodic descriptor-level comparison.
  function quickChanged() {
    var i, v, n = holders.length;
    for (i = 0; i < n; i++) {
      var h = holders[i];
      if (isExtensible(h) !== holderExtensible[i] || getPrototypeOf(h) !== holderProto[i] ||
          (holderCounted[i] && ownPropertyKeys(h).length !== holderCount[i])) return true;
    }
    n = dataObjects.length;
    for (i = 0; i < n; i++) {
      v = dataObjects[i][dataKeys[i]];
      if (v !== dataValues[i] && (v === v || dataValues[i] === dataValues[i])) return true;   // NaN is NaN
    }
    return false;
  }
  function fullCheck() {
    var i, e, d, what;
    for (i = 0; i < watched.length; i++) {
      e = watched[i];
      if (reported[e.name] === true) continue;
      what = globalChanged(e, ownDescriptor(e.obj, e.key));
      if (what !== null) reportGlobal(e, what);
    }
    for (i = 0; i < intrinsic.length; i++) {
      e = intrinsic[i];
      d = ownDescriptor(e.obj, e.key);
      if (d === undefined) { reportIntrinsic(e.name, 'deleted'); continue; }
      var data = hasOwn(d, 'value');
      if (data !== e.data || (data ? !sameValue(d.value, e.value) : d.get !== e.get || d.set !== e.set)) {
        reportIntrinsic(e.name, data === e.data ? 'replaced' : 'redefined as ' + (data ? 'a value' : 'an accessor'));
      } else if (flagsOf(d) !== e.flags) {
        reportIntrinsic(e.name, 'redefined (its attributes)');
      }
    }
    for (i = 0; i < holders.length; i++) {
      var h = holders[i], label = holderLabels[i];
      if (isExtensible(h) !== holderExtensible[i]) reportIntrinsic(label, 'made non-extensible');
      if (getPrototypeOf(h) !== holderProto[i]) reportIntrinsic(label, 'given another prototype');
      if (!holderCounted[i]) continue;
      var ks = ownPropertyKeys(h), known = holderKnown[i];
      for (var j = 0; j < ks.length; j++) if (known[ks[j]] !== true) reportIntrinsic(propertyName(label, ks[j]), 'defined');
    }
  }
  function checkAll() {
    if (definersCalled || checks++ % FULL_EVERY === 0 || quickChanged()) {
      definersCalled = false;
      fullCheck();
    }
  }

  // ---- the tagged value encoding -------------------------------------------
  var UNDEFINED = '{"$":"undefined"}', OBJECT = '{"$":"object"}', ARRAY = '{"$":"array"}',
      PROMISE = '{"$":"promise"}';
  function number(x) {
    if (x !== x) return '{"$":"number","value":"NaN"}';
    if (x === Infinity) return '{"$":"number","value":"Infinity"}';
    if (x === -Infinity) return '{"$":"number","value":"-Infinity"}';
    if (x === 0 && 1 / x < 0) return '{"$":"number","value":"-0"}';
    return jsonQuote(x);           // a primitive: no toJSON lookup
  }
  function functionName(f) {
    try { var n = f.name; } catch (e) { return 'null'; }
    return typeof n === 'string' ? bounded(n, MAX_TEXT_CHARS) : 'null';
  }
  // JSON text of a non-object, or null for an object.
  function primitive(v) {
    switch (typeof v) {
      case 'string': return jsonQuote(v);  // an answer's: answerPrimitive
      case 'number': return number(v);
      case 'boolean': return v ? 'true' : 'false';
      case 'undefined': return UNDEFINED;
      case 'bigint': return '{"$":"bigint","value":' + bounded(apply(bigintToString, v, []), MAX_TEXT_CHARS) + '}';
      case 'symbol':
        var d = apply(symbolDescription, v, []);
        return '{"$":"symbol","description":' + (d === undefined ? 'null' : bounded(d, MAX_TEXT_CHARS)) + '}';
      case 'function': return '{"$":"function","name":' + functionName(v) + '}';
    }
    return v === null ? 'null' : null;
  }
  function safeIsArray(v) {
    try { return isArray(v); } catch (e) { return false; }   // a revoked Proxy throws
  }
  function opaque(v) {
    return safeIsArray(v) ? ARRAY : OBJECT;
  }
  function readString(obj, key) {
    try { var v = obj[key]; } catch (e) { return 'null'; }
    return typeof v === 'string' ? bounded(v, MAX_TEXT_CHARS) : 'null';
  }
  // name, message and value of something thrown; never throws itself.
  function thrown(e) {
    var p = primitive(e);
    if (p !== null && typeof e !== 'function') {
      return '"name":null,"message":' + bounded(StringCtor(e), MAX_TEXT_CHARS) + ',"value":' +
             (typeof e === 'string' ? bounded(e, MAX_TEXT_CHARS) : p);
    }
    return '"name":' + readString(e, 'name') + ',"message":' + readString(e, 'message') +
           ',"value":' + (p !== null ? p : opaque(e));
  }
  function isOutOfMemory(e) {
    try { return e instanceof InternalErrorCtor && e.message === 'out of memory'; } catch (x) { return false; }
  }
  function failure(e, where) {
    if (isOutOfMemory(e)) return '{"ok":false,"error":{"category":"memory","message":"out of memory"}' + drainViolations() + '}';
    var at = where === 'act' && primitive(e) === null ? ',"at":' + locate(stackOf(e)) : '';
    return '{"ok":false,"error":{"category":"throw","where":' + jsonQuote(where) + ',' + thrown(e) + at + '}' +
           drainViolations() + '}';
  }

  // ---- where an error was thrown -----------------------------------------------
  // The first frame of QuickJS's stack that lies in a script: "at decide (<input>:12:5)". The
  // binding names every script <input>, so worker.py loads the engine below the script's last line
  // (scriptLines): the line number tells them apart. Native frames (a builtin that threw) are skipped.
  // On the V8 host the scripts are named "bot" and "engine" and an anonymous frame has no parentheses.
  var FRAME = /^ *at (?:(.+) \((<input>|bot|engine):(\d+):(\d+)\)|(bot|engine):(\d+):(\d+))$/m, MAX_STACK = 20000;
  function stackOf(e) {
    try { return e.stack; } catch (x) { return undefined; }
  }
  function locate(stack) {
    if (typeof stack !== 'string') return 'null';
    var m = apply(regexpExec, FRAME, [apply(stringSlice, stack, [0, MAX_STACK])]);
    if (m === null) return 'null';
    var file = m[2] || m[5], line = +(m[3] || m[6]), column = +(m[4] || m[7]), name = m[1];
    var engine = file === '<input>' ? line > scriptLines : file === 'engine';
    if (file === '<input>' && engine) line -= scriptLines;
    var unnamed = name === undefined || name === '<eval>' || name === '<anonymous>';   // top-level code, an anonymous function
    return '{"function":' + (unnamed ? 'null' : bounded(name, MAX_TEXT_CHARS)) + ',"source":"' + (engine ? 'engine' : 'script') +
           '","line":' + line + ',"column":' + column + '}';
  }

  // An act answer: a string as is; of an object only `then`, `type` and `amount`
  // are read, each guarded; nested objects are not transported.
  function answerPrimitive(v) {
    if (typeof v !== 'string') return primitive(v);
    return v.length > MAX_ANSWER_CHARS ? '{"$":"toolong","length":' + v.length + '}' : jsonQuote(wellFormed(v));
  }
  function encodeAnswer(v, problems) {
    var p = answerPrimitive(v);
    if (p !== null) return p;
    if (safeIsArray(v)) return ARRAY;
    var then;
    try { then = v.then; } catch (e) { return throwingField('then', e, problems); }
    if (typeof then === 'function') return PROMISE;
    return '{"type":' + field(v, 'type', problems) + ',"amount":' + field(v, 'amount', problems) + '}';
  }
  function field(obj, key, problems) {
    var x;
    try { x = obj[key]; } catch (e) { return throwingField(key, e, problems); }
    var p = answerPrimitive(x);
    return p !== null ? p : opaque(x);
  }
  function throwingField(key, e, problems) {
    if (problems.where === null) { problems.where = 'answer.' + key; problems.error = e; }
    return '{"$":"throwing",' + thrown(e) + '}';
  }

  // A call's value, recursively, bounded by depth and node count. Pieces go to
  // one array joined at the end: repeated `+=` on long strings is quadratic.
  var out, nodes, TOO_LARGE = {};   // compared by identity: no user code runs
  function emit(text) { append(out, text); }
  function encodeDeep(v, depth) {
    if (++nodes > MAX_NODES) throw TOO_LARGE;
    var p = primitive(v);
    if (p !== null) return emit(p);
    if (depth >= MAX_DEPTH) return emit(opaque(v));
    var mark = out.length;
    try {
      if (isArray(v)) {
        emit('[');
        for (var i = 0, n = v.length; i < n; i++) {
          if (i) emit(',');
          encodeMember(v, i, depth);
        }
        return emit(']');
      }
      var then = v.then;
      if (typeof then === 'function') return emit(PROMISE);
      var ks = ownKeys(v), escaped = false;
      emit('{');
      for (var k = 0; k < ks.length; k++) {
        if (ks[k] === '$') escaped = true;
        emit((k ? ',' : '') + jsonQuote(ks[k]) + ':');
        encodeMember(v, ks[k], depth);
      }
      emit('}');
      if (escaped) { put(out, mark, '{"$":"object","value":{'); emit('}'); }
    } catch (e) {
      if (e === TOO_LARGE || isOutOfMemory(e)) throw e;
      out.length = mark;
      emit('{"$":"throwing",' + thrown(e) + '}');
    }
  }
  function encodeMember(obj, key, depth) {
    var x;
    try { x = obj[key]; } catch (e) {
      if (isOutOfMemory(e)) throw e;
      return emit('{"$":"throwing",' + thrown(e) + '}');
    }
    encodeDeep(x, depth + 1);
  }
  function valueResponse(v) {
    out = []; nodes = 0;
    var text;
    try {
      encodeDeep(v, 0);
      text = apply(join, out, ['']);
    } catch (e) {
      if (e !== TOO_LARGE) throw e;
      text = '{"$":"truncated","reason":' + jsonQuote('more than ' + MAX_NODES + ' values') + '}';
    }
    out = null;
    return '{"ok":true,"value":' + text + drainViolations() + '}';
  }

  // ---- requests -------------------------------------------------------------
  // Arguments use the same tags, so a call can pass NaN, undefined or a bigint.
  var SPECIAL_NUMBERS = {NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0};
  function decodeArg(v) {
    if (v === null || typeof v !== 'object') return v;
    if (isArray(v)) {
      for (var i = 0; i < v.length; i++) v[i] = decodeArg(v[i]);
      return v;
    }
    switch (v.$) {
      case undefined: break;
      case 'undefined': return undefined;
      case 'number': return SPECIAL_NUMBERS[v.value];
      case 'bigint': return BigIntCtor(v.value);
      case 'object': v = v.value; break;
      default: throw new ErrorCtor('cannot pass a ' + v.$ + ' tag as an argument');
    }
    var ks = ownKeys(v);
    for (var k = 0; k < ks.length; k++) v[ks[k]] = decodeArg(v[ks[k]]);
    return v;
  }
  var actFn = null, actThis;
  function shapeError(message) {
    return '{"ok":false,"error":{"category":"export-shape","message":' + jsonQuote(message) + '}' + drainViolations() + '}';
  }
  function describe(v) {
    return v === null ? 'null' : safeIsArray(v) ? 'an array' : typeof v;
  }
  function finish(mode) {
    if (mode !== 'bot') return '{"ok":true,"name":null,"shape":null' + drainViolations() + '}';
    watchKey(G, 'exports', 'exports');
    watching = true;
    var exported, reassigned;
    try {
      exported = G.module.exports;
      // R28: as in CommonJS, `exports = ...` rebinds the name only; module.exports is what counts.
      reassigned = exported === initialExports && ownKeys(initialExports).length === 0 && G.exports !== initialExports;
    } catch (e) { return shapeError('reading module.exports threw'); }
    if (reassigned) {
      return shapeError('module.exports is still the empty initial object: `exports = ...` rebinds the name ' +
                        'only and exports nothing (R28); assign module.exports instead');
    }
    if (typeof exported === 'function') {
      actFn = exported; actThis = undefined;
      return '{"ok":true,"name":null,"shape":"function"' + watchedField() + drainViolations() + '}';
    }
    if (exported === null || typeof exported !== 'object' || safeIsArray(exported)) {
      return shapeError('module.exports must be a function or an object with a function act, got ' + describe(exported));
    }
    var act, name;
    try { act = exported.act; } catch (e) { return shapeError('reading module.exports.act threw'); }
    if (typeof act !== 'function') return shapeError('module.exports.act must be a function, got ' + describe(act));
    try { name = exported.name; } catch (e) { return shapeError('reading module.exports.name threw'); }
    if (name !== undefined && typeof name !== 'string') {
      return shapeError('module.exports.name must be a string when present, got ' + describe(name));
    }
    actFn = act; actThis = exported;
    return '{"ok":true,"name":' + (name === undefined ? 'null' : bounded(name, MAX_NAME_CHARS)) + ',"shape":"object"' + watchedField() + drainViolations() + '}';
  }
  // ---- the decision history, sent once per hand ------------------------------
  // The public summary of a finished hand never changes, so the host sends each one once
  // (newHistory) and then only names the hands a state's history holds (historyHands).
  // The pristine entries stay here, out of the bot's reach; every decision gets fresh
  // copies, exactly what JSON.parse of the whole history would give, at about half the cost.
  var historyCache = createObject(null);
  var ENTRY_KEYS = 'handNumber,board,showdown,winners', SHOWN_KEYS = 'id,cards,hand', WINNER_KEYS = 'id,amount';
  function keysAre(v, keys) {
    return v !== null && typeof v === 'object' && !isArray(v) && apply(join, ownKeys(v), [',']) === keys;
  }
  function stringList(v) {
    if (!isArray(v)) return false;
    for (var i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
    return true;
  }
  // Only the shape copyEntry copies may enter the cache: anything else would be dropped silently.
  function entryProblem(e) {
    if (!keysAre(e, ENTRY_KEYS)) return 'a history entry must have exactly the keys ' + ENTRY_KEYS;
    if (typeof e.handNumber !== 'number' || !stringList(e.board) || !isArray(e.showdown) || !isArray(e.winners)) {
      return 'history entry ' + e.handNumber + ': bad field types';
    }
    for (var i = 0; i < e.showdown.length; i++) {
      var x = e.showdown[i];
      if (!keysAre(x, SHOWN_KEYS) || !stringList(x.cards)) return 'history entry ' + e.handNumber + ': bad showdown';
    }
    for (var j = 0; j < e.winners.length; j++) {
      if (!keysAre(e.winners[j], WINNER_KEYS)) return 'history entry ' + e.handNumber + ': bad winners';
    }
    return null;
  }
  // By assignment, for speed: a bot that put a setter on Array.prototype's elements meets it in its
  // own state's copies (and is reported for the change, checkAll).
  function copyList(a) {
    var b = [];
    for (var i = 0; i < a.length; i++) b[i] = a[i];
    return b;
  }
  function copyEntry(e) {
    var shown = e.showdown, won = e.winners, s = [], w = [], i, x;
    for (i = 0; i < shown.length; i++) { x = shown[i]; s[i] = {id: x.id, cards: copyList(x.cards), hand: x.hand}; }
    for (i = 0; i < won.length; i++) { x = won[i]; w[i] = {id: x.id, amount: x.amount}; }
    return {handNumber: e.handNumber, board: copyList(e.board), showdown: s, winners: w};
  }
  // Fills state.history (sent as a placeholder, so the key keeps its place); a problem or null.
  function fillHistory(req, state) {
    var added = hasOwn(req, 'newHistory') ? req.newHistory : undefined, hands = req.historyHands, i, e, problem;
    if (!isArray(added) || !isArray(hands) || state === null || typeof state !== 'object' || !hasOwn(state, 'history')) {
      return 'act: historyHands needs newHistory and a state with a history placeholder';
    }
    for (i = 0; i < added.length; i++) {
      e = added[i];
      problem = entryProblem(e);
      if (problem !== null) return problem;
      historyCache[e.handNumber] = e;
    }
    var history = [], keep = createObject(null);
    for (i = 0; i < hands.length; i++) {
      e = historyCache[hands[i]];
      if (e === undefined) return 'act: history entry ' + hands[i] + ' was never sent';
      history[i] = copyEntry(e);
      keep[hands[i]] = true;
    }
    var cached = ownKeys(historyCache);
    for (i = 0; i < cached.length; i++) if (keep[cached[i]] !== true) delete historyCache[cached[i]];
    state.history = history;
    return null;
  }
  function act(text) {
    var req = jsonParse(text), state = req.state, answer;
    if (!hasOwn(req, 'state')) return protocolError('act.state is missing');
    // Own fields only: a bot may have put getters on Object.prototype.
    if (hasOwn(req, 'historyHands')) {
      var problem = fillHistory(req, state);
      if (problem !== null) return protocolError(problem);
    }
    try { answer = apply(actFn, actThis, [state]); } catch (e) { return failure(e, 'act'); }
    var problems = {where: null, error: undefined};
    var encoded;
    try { encoded = encodeAnswer(answer, problems); } catch (e) { return failure(e, 'answer'); }
    if (problems.where !== null) {
      return '{"ok":false,"answer":' + encoded + ',"error":{"category":"throw","where":' +
             jsonQuote(problems.where) + ',' + thrown(problems.error) + '}' + drainViolations() + '}';
    }
    return '{"ok":true,"answer":' + encoded + drainViolations() + '}';
  }
  // The first name is a global binding, so a script-level `const PokerEngine`
  // is found too; `this` is the object holding the function (undefined at top).
  function call(text) {
    var req = jsonParse(text), parts = apply(split, req.path, ['.']), holder, target, reached = parts[0];
    if (!apply(regexpExec, IDENTIFIER, [reached])) return pathError(reached + ' is not an identifier');
    try { target = evalIntrinsic('typeof ' + reached + " === 'undefined' ? undefined : " + reached); } catch (e) {
      return failure(e, 'path');
    }
    for (var i = 1; i < parts.length; i++) {
      if (target === null || (typeof target !== 'object' && typeof target !== 'function')) {
        return pathError(reached + ' is ' + describe(target) + ', not an object');
      }
      holder = target;
      reached += '.' + parts[i];
      try { target = holder[parts[i]]; } catch (e) { return failure(e, 'path'); }
    }
    if (typeof target !== 'function') return pathError(reached + ' is ' + describe(target) + ', not a function');
    var result;
    var args = decodeArg(req.args);
    try { result = apply(target, holder, args); } catch (e) { return failure(e, 'call'); }
    return valueResponse(result);
  }
  function protocolError(message) {
    return '{"ok":false,"error":{"category":"protocol","message":' + jsonQuote(message) + '}' + drainViolations() + '}';
  }
  function pathError(message) {
    return '{"ok":false,"error":{"category":"path","message":' + jsonQuote(message) + '}' + drainViolations() + '}';
  }
  function evalFn(text) {
    var req = jsonParse(text), fn, result;
    try { fn = evalIntrinsic('(' + req.source + '\n)'); } catch (e) {
      if (e instanceof SyntaxErrorCtor || (evaluate !== undefined && readString(e, 'name') === '"SyntaxError"')) {
        return '{"ok":false,"error":{"category":"syntax","message":' + jsonQuote(StringCtor(e.message)) + '}' + drainViolations() + '}';
      }
      return failure(e, 'source');
    }
    if (typeof fn !== 'function') return pathError('the source evaluates to ' + describe(fn) + ', not a function');
    var args = decodeArg(req.args);
    try { result = apply(fn, undefined, args); } catch (e) { return failure(e, 'call'); }
    return valueResponse(result);
  }

  function dispatch(op, text) {
    switch (op) {
      case 'act': return act(text);
      case 'call': return call(text);
      case 'evalFn': return evalFn(text);
      case 'finish': return finish(text);
      case 'locate': return locate(text);
      case 'drain': return '{' + apply(stringSlice, drainViolations(), [1]) + '}';
      case 'watch': watchGlobals(); watchIntrinsics(); return 'null';
    }
    throw new ErrorCtor('unknown op ' + op);
  }
  // A long concatenation is a rope in quickjs-ng, a value the binding cannot hand to Python
  // ("Unknown quickjs tag: -6"); slice(0) returns it as one flat string.
  return function host(op, text) {
    return apply(stringSlice, dispatch(op, text), [0]);
  };
})
