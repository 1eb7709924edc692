/*
 * A CommonJS loader for a package's modules in the QuickJS worker, which has no `require`
 * (docs/adapters.md). A bundle made by conformance/implementations/poker_ts.py calls
 * `__commonjsDefine(path, factory)` once per module file, with the file's text verbatim as the
 * factory's body; `require(name)` then runs a module once, as Node does, resolving relative paths
 * against the requiring module. The two Node built-ins poker-ts needs are supplied here:
 * `assert` (throws an AssertionError) and `crypto.randomInt` (from the worker's seeded
 * Math.random: poker-ts shuffles with it when a table is made; the adapter replaces that shuffle
 * for every hand, so no card comes from it).
 */
var __commonjsFactories = {};
var __commonjsCache = {};
var __commonjsMains = {};  // a package name -> its main module's path

function __commonjsDefine(path, factory) {
  __commonjsFactories[path] = factory;
}

var __commonjsBuiltins = {
  assert: function assert(value, message) {
    if (!value) {
      var error = new Error(message === undefined ? 'Assertion failed' : String(message));
      error.name = 'AssertionError';
      error.code = 'ERR_ASSERTION';
      throw error;
    }
  },
  crypto: {
    randomInt: function randomInt(max) { return Math.floor(Math.random() * max); },
  },
};

function __commonjsResolve(from, name) {
  if (name.charAt(0) !== '.') return __commonjsMains[name] || name;
  var parts = from.split('/');
  parts.pop();  // the requiring module's directory
  name.split('/').forEach(function (part) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  });
  return parts.join('/');
}

function __commonjsRequire(from, name) {
  if (Object.prototype.hasOwnProperty.call(__commonjsBuiltins, name)) return __commonjsBuiltins[name];
  var path = __commonjsResolve(from, name);
  if (Object.prototype.hasOwnProperty.call(__commonjsCache, path)) return __commonjsCache[path].exports;
  var factory = __commonjsFactories[path];
  if (!factory) throw new Error('require: no module ' + JSON.stringify(name) + ' (from ' + from + ')');
  var module = {exports: {}};
  __commonjsCache[path] = module;
  factory.call(module.exports, module.exports, function (next) { return __commonjsRequire(path, next); }, module);
  return module.exports;
}

var require = function (name) { return __commonjsRequire('', name); };
