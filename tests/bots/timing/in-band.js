// Timing: a fixed busy loop that QuickJS needs about 200 ms of CPU time for, and V8 a few ms:
// near the deadline in the interpreter, far within it in a browser.
var ITERATIONS = 5000000;
module.exports = function act(s) {
  var x = 0;
  for (var i = 0; i < ITERATIONS; i++) x = (x * 31 + i) | 0;
  return s.canCheck ? 'check' : (x === 7 ? 'call' : 'fold');
};
