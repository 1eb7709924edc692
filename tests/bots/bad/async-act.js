'use strict';

// An async act returns a Promise, not an answer.
module.exports = async function act(state) {
  return { type: state.canCheck ? 'check' : 'fold' };
};
