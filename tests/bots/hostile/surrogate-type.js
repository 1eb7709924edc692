'use strict';
// An action type with a lone surrogate in it: malformed, never a crash.
module.exports = function act(state) {
  return { type: state.canCheck ? 'che\udbffck' : 'fold' };
};
