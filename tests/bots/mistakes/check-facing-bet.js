// Mistake: checks facing a bet it could call.
module.exports = function act(s) { return s.canCheck || s.toCall < s.you.stack ? 'check' : 'fold'; };
