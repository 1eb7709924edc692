// Mistake: gives a raise as the chips to add, not the street total (wrong once chips are in).
module.exports = function act(s) {
  if (s.minRaiseTo !== null && s.you.bet > 0 && s.minRaiseTo < s.maxRaiseTo) {
    return {type: 'raise', amount: s.minRaiseTo - s.you.bet};
  }
  return s.canCheck ? 'check' : 'fold';
};
