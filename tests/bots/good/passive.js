'use strict';

// Compliant and passive: checks when it can, calls otherwise, never raises. Nine copies of it
// reach showdown together on most hands: the full-length table's longest case (its decision cap).
module.exports = function act(state) {
  return state.canCheck ? 'check' : 'call';
};
