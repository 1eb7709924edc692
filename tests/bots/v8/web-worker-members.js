// A compliant bot written for a browser's worker (issue #35): a what-if copy of the state with
// structuredClone, a memo key hashed through TextEncoder, a base64 tag with btoa/atob, a decoded
// label with TextDecoder, and DOMException to recognise a bad tag. It answers legally.
'use strict';
var memo = new Map();
function key(s) {
  var bytes = new TextEncoder().encode(s.street + '|' + s.board.join('') + '|' + s.you.cards.join(''));
  var h = 0;
  for (var i = 0; i < bytes.length; i++) h = (h * 31 + bytes[i]) | 0;
  return btoa(String(h >>> 0));
}
module.exports = {
  name: 'Web Worker Members',
  act: function (s) {
    var whatIf = structuredClone(s);
    whatIf.you.stack = 0;                       // the copy only
    var k = key(s);
    if (atob(k) !== String(Number(atob(k)))) throw new Error('base64 round trip failed');
    var label = new TextDecoder().decode(new TextEncoder().encode(s.street));
    try { atob('*'); } catch (e) { if (!(e instanceof DOMException)) throw e; }
    memo.set(k, (memo.get(k) || 0) + 1);
    if (whatIf.you.stack === s.you.stack || label !== s.street) throw new Error('a copy changed the state');
    return s.canCheck ? 'check' : 'fold';
  }
};
