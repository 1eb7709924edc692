// Timing: about 20 ms of CPU a decision in QuickJS (a fixed busy loop), one or two in V8: the bot of
// bench/bench_bot_cert.py's "twenty-ms" case (issue #35: any bot of <= 2 ms a decision in V8 gets
// its complete verdict within the default budget).
'use strict';
var ITERATIONS = 300000;
module.exports = function act(s) {
  var x = 0;
  for (var i = 0; i < ITERATIONS; i++) x = (x * 31 + i) | 0;
  return s.canCheck ? 'check' : (x === 7 ? 'call' : 'fold');
};
