// Mistake: a raise whose amount is null when it means 'the minimum'.
module.exports = function act(s) {
  if (s.minRaiseTo !== null && s.you.bet > 0) return {type: 'raise', amount: null};
  return s.canCheck ? 'check' : 'call';
};
