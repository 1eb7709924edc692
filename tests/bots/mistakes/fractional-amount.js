// Mistake: a raise amount that is not an integer.
module.exports = function act(s) {
  if (s.minRaiseTo !== null && s.minRaiseTo < s.maxRaiseTo) return {type: 'raise', amount: s.minRaiseTo + 0.5};
  return s.canCheck ? 'check' : 'fold';
};
