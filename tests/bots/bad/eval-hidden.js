'use strict';

// eval reached through a computed global name, which the static linter cannot
// resolve; the error is swallowed, so only the worker's guard sees it.
const name = ['ev', 'al'].join('');

module.exports = function act(state) {
  try {
    globalThis[name]('1 + 1');
  } catch (e) {
    // ignored
  }
  return { type: state.canCheck ? 'check' : 'fold' };
};
