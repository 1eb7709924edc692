// The bot (#26): uses Object.groupBy on every decision and, at a nine-seat table, a busy loop
// that takes seconds in QuickJS and well over 200 ms in V8 too. With V8 lacking Object.groupBy it
// threw at once in node, and the throw counted as a fast answer: certified "at risk". Node 24 has
// Object.groupBy but not Math.sumPrecise (core-js brings both): the bot uses both.
var ITERATIONS = 200000000;
module.exports = function act(s) {
  var bySign = Object.groupBy(s.seats, function (seat) { return seat.stack > 0 ? 'in' : 'out'; });
  var x = (bySign['in'] || []).length + Math.sumPrecise([0]);
  if (s.seats.length === 9) for (var i = 0; i < ITERATIONS; i++) x = (x * 31 + i) | 0;
  return s.canCheck ? 'check' : (x === 7 ? 'call' : 'fold');
};
