'use strict';

// The function export; string answers.
module.exports = function act(state) {
  if (state.canCheck) return 'check';
  if (state.canAllIn && state.toCall >= state.you.stack) return 'allin';
  return state.toCall <= state.blinds[1] ? 'call' : 'fold';
};
