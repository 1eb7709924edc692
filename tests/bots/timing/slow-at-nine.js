// Timing: fast at every table but a full one; at nine seats a fixed busy loop that QuickJS needs
// about 120 ms of CPU time for (V8 a few ms). Given a deadline below that, every nine-seat state is
// killed in QuickJS and re-timed at risk, never late beyond doubt: the battery's kill bound stops it.
var ITERATIONS = 3000000;
module.exports = function act(s) {
  var x = 0;
  if (s.seats.length === 9) for (var i = 0; i < ITERATIONS; i++) x = (x * 31 + i) | 0;
  return s.canCheck ? 'check' : (x === 7 ? 'call' : 'fold');
};
