// Mistake: raises one chip above maxRaiseTo (more than its stack).
module.exports = function act(s) {
  if (s.minRaiseTo !== null) return {type: 'raise', amount: s.maxRaiseTo + 1};
  return s.canCheck ? 'check' : 'fold';
};
