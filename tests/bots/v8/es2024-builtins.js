// Uses every ES2024+ builtin that the QuickJS worker offers and node 20 lacks (and a few that node 20
// has), on every decision; throws naming the ones that failed. Timed in V8 only with core-js's builtins
// loaded first (conformance/host/node_polyfill.py); the QuickJS worker has them natively.
function uses() {
  var u8 = new Uint8Array([1, 2, 255]);
  return {
    'Object.groupBy': function () { return Object.groupBy([1, 2, 3], function (x) { return x % 2 ? 'odd' : 'even'; }).odd.length === 2; },
    'Map.groupBy': function () { return Map.groupBy([1, 2, 3], function (x) { return x % 2; }).get(1).length === 2; },
    'Promise.withResolvers': function () { return typeof Promise.withResolvers().resolve === 'function'; },
    'Promise.try': function () { return Promise.try(function () { return 1; }) instanceof Promise; },
    'Array.fromAsync': function () { return Array.fromAsync([1]) instanceof Promise; },
    'ArrayBuffer.prototype.transfer': function () { var b = new ArrayBuffer(4), c = b.transfer(8); return b.detached && c.byteLength === 8; },
    'ArrayBuffer.prototype.transferToFixedLength': function () { return new ArrayBuffer(2).transferToFixedLength(4).byteLength === 4; },
    'Set.prototype.union': function () { return new Set([1]).union(new Set([2])).size === 2; },
    'Set.prototype.intersection': function () { return new Set([1, 2]).intersection(new Set([2])).size === 1; },
    'Set.prototype.difference': function () { return new Set([1, 2]).difference(new Set([2])).size === 1; },
    'Set.prototype.symmetricDifference': function () { return new Set([1, 2]).symmetricDifference(new Set([2, 3])).size === 2; },
    'Set.prototype.isSubsetOf': function () { return new Set([1]).isSubsetOf(new Set([1, 2])); },
    'Set.prototype.isSupersetOf': function () { return new Set([1, 2]).isSupersetOf(new Set([1])); },
    'Set.prototype.isDisjointFrom': function () { return new Set([1]).isDisjointFrom(new Set([2])); },
    'Iterator helpers': function () {
      return Iterator.from([1, 2, 3, 4]).map(function (x) { return x * 2; }).filter(function (x) { return x > 2; })
        .drop(1).take(2).toArray().join() === '6,8' &&
        [1, 2].values().reduce(function (a, b) { return a + b; }) === 3 &&
        [1, 2].values().some(function (x) { return x === 2; }) && [1, 2].values().every(function (x) { return x > 0; }) &&
        [1, 2].values().find(function (x) { return x === 2; }) === 2 &&
        [1].values().flatMap(function (x) { return [x, x]; }).toArray().length === 2;
    },
    'Iterator.concat': function () { return Iterator.concat([1], [2]).toArray().length === 2; },
    'Iterator.zip': function () { return Iterator.zip([[1, 2], [3, 4]]).toArray()[1][1] === 4; },
    'Iterator.zipKeyed': function () { return Iterator.zipKeyed({a: [1], b: [2]}).toArray()[0].b === 2; },
    'Iterator.prototype.chunks': function () { return [1, 2, 3].values().chunks(2).toArray().length === 2; },
    'Iterator.prototype.windows': function () { return [1, 2, 3].values().windows(2).toArray().length === 2; },
    'Iterator.prototype.includes': function () { return [1, 2].values().includes(2); },
    'Iterator.prototype.join': function () { return [1, 2].values().join('-') === '1-2'; },
    'DisposableStack': function () { var n = 0, s = new DisposableStack(); s.defer(function () { n++; }); s.dispose(); return n === 1; },
    'AsyncDisposableStack': function () { return typeof new AsyncDisposableStack().disposeAsync === 'function'; },
    'SuppressedError': function () { return new SuppressedError(1, 2, 'm').suppressed === 2; },
    'Error.isError': function () { return Error.isError(new TypeError('x')) && !Error.isError({}); },
    'Map.prototype.getOrInsert': function () { var m = new Map(); m.getOrInsert('a', 1); return m.getOrInsertComputed('b', function () { return 2; }) === 2; },
    'WeakMap.prototype.getOrInsert': function () { var k = {}, m = new WeakMap(); m.getOrInsertComputed(k, function () { return 1; }); return m.getOrInsert(k, 2) === 1; },
    'Math.f16round': function () { return Math.f16round(1.337) === 1.3369140625; },
    'Math.sumPrecise': function () { return Math.sumPrecise([1e20, 0.1, -1e20]) === 0.1; },
    'RegExp.escape': function () { return new RegExp(RegExp.escape('a.b')).test('a.b'); },
    'DataView.prototype.getFloat16': function () { var d = new DataView(new ArrayBuffer(2)); d.setFloat16(0, 1.5); return d.getFloat16(0) === 1.5; },
    'Uint8Array base64 and hex': function () {
      var t = new Uint8Array(3);
      return u8.toBase64() === 'AQL/' && Uint8Array.fromBase64('AQL/')[2] === 255 && u8.toHex() === '0102ff' &&
        Uint8Array.fromHex('0102ff')[1] === 2 && t.setFromHex('0a0b0c').written === 3 && t.setFromBase64('AQL/').read === 4;
    },
    'Array.prototype.toSorted and friends': function () {
      var a = [3, 1, 2];
      return a.toSorted().join() === '1,2,3' && a.with(0, 9)[0] === 9 && a.findLast(function (x) { return x > 1; }) === 2 &&
        a.toReversed()[0] === 2 && a.toSpliced(0, 1).length === 2 && a[0] === 3;
    },
  };
}
module.exports = function act(state) {
  var u = uses(), failed = [];
  for (var name in u) {
    var ok;
    try { ok = u[name](); } catch (e) { ok = false; }
    if (ok !== true) failed.push(name);
  }
  if (failed.length) throw new Error('missing: ' + failed.join(', '));
  return state.canCheck ? 'check' : 'fold';
};
