// Timing and a rare mistake (#35 item 4): a fixed busy loop every decision, so that a small
// --time-budget cuts the battery, and an illegal raise (one chip above maxRaiseTo) only from hand 20
// on: a late, rare state class (decision kind late-tournament) that only the stratified states reach.
var ITERATIONS = 100000;
module.exports = function act(s) {
  var x = 0;
  for (var i = 0; i < ITERATIONS; i++) x = (x * 31 + i) | 0;
  if (s.handNumber >= 20) return {type: 'raise', amount: s.maxRaiseTo + 1};
  return s.canCheck ? 'check' : (x === 7 ? 'call' : 'fold');
};
