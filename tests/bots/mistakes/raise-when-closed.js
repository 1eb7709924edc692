// Mistake: raises when the action was not reopened (minRaiseTo null with chips behind a call).
module.exports = function act(s) {
  if (s.minRaiseTo === null && s.toCall < s.you.stack) return {type: 'raise', amount: s.maxRaiseTo};
  return s.canCheck ? 'check' : 'fold';
};
