// Mistake: goes all-in when canAllIn is false.
module.exports = function act(s) {
  if (!s.canAllIn) return 'allin';
  return s.canCheck ? 'check' : 'fold';
};
