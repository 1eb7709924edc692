// Legal: all-in whenever allowed, else check or fold.
module.exports = function act(s) { return s.canAllIn ? 'allin' : (s.canCheck ? 'check' : 'fold'); };
