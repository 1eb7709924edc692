// Mistake: raises one chip below minRaiseTo.
module.exports = function act(s) {
  var to = s.minRaiseTo === null ? 0 : s.minRaiseTo - 1;
  if (to > s.currentBet && to !== s.maxRaiseTo && s.minRaiseTo <= s.maxRaiseTo) return {type: 'raise', amount: to};
  return s.canCheck ? 'check' : 'fold';
};
