'use strict';

// eval in plain sight, its error swallowed.
module.exports = function act(state) {
  let type = state.canCheck ? 'check' : 'fold';
  try {
    type = eval("'fold'");
  } catch (e) {
    // the guard throws; keep the fallback answer
  }
  return { type };
};
