'use strict';

// Reads what it needs, then vandalises its copy of the state: the runner sends
// a fresh object every time, so none of this may reach the engine.
module.exports = function act(state) {
  const canCheck = state.canCheck;
  const toCall = state.toCall;
  const stack = state.you.stack;
  state.you.stack = 0;
  state.canCheck = !canCheck;
  state.pots.length = 0;
  state.seats.forEach((s) => {
    s.folded = true;
  });
  state.history.push({ handNumber: -1 });
  delete state.board;
  state.tournament.blindSchedule = null;
  if (canCheck) return 'check';
  return toCall * 4 <= stack ? 'call' : 'fold';
};
