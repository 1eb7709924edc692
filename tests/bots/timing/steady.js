// Timing: every decision a fixed busy loop of about 20 ms of QuickJS CPU time: far within the
// deadline, but a battery of a thousand states takes half a minute.
var ITERATIONS = 500000;
module.exports = function act(s) {
  var x = 0;
  for (var i = 0; i < ITERATIONS; i++) x = (x * 31 + i) | 0;
  return s.canCheck ? 'check' : (x === 7 ? 'call' : 'fold');
};
