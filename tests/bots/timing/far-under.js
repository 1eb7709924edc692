// Timing: a few hundred operations per decision, far under any deadline.
module.exports = function act(s) {
  var x = 0;
  for (var i = 0; i < 300; i++) x = (x * 31 + i) | 0;
  return s.canCheck ? 'check' : (x === 7 ? 'call' : 'fold');
};
