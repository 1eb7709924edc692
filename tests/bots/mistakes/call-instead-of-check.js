// Mistake: calls when it could check preflop (the big blind's option); right everywhere else.
module.exports = function act(s) {
  if (s.canCheck) return s.street === 'preflop' ? 'call' : 'check';
  return s.toCall < s.you.stack ? 'call' : 'fold';
};
