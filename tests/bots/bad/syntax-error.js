'use strict';

// A missing closing brace: the script does not parse.
module.exports = function act(state) {
  if (state.canCheck) {
    return { type: 'check' };
  return { type: 'fold' };
};
