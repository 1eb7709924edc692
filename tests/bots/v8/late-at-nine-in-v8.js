// Fast at every table but a full one; at nine seats a busy loop of about a second of CPU in V8 (far
// longer in QuickJS): late in every browser at nine seats only (issue #35), so rejected there.
'use strict';
var ITERATIONS = 200000000;
module.exports = function act(s) {
  var x = 0;
  if (s.seats.length === 9) for (var i = 0; i < ITERATIONS; i++) x = (x * 31 + i) | 0;
  return s.canCheck ? 'check' : (x === 7 ? 'call' : 'fold');
};
