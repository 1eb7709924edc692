// Mistake: raises to minRaiseTo even when minRaiseTo > maxRaiseTo (only the all-in raise is possible).
module.exports = function act(s) {
  if (s.minRaiseTo !== null) return {type: 'raise', amount: s.minRaiseTo};
  return s.canCheck ? 'check' : 'fold';
};
