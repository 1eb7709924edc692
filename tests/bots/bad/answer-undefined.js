'use strict';

// Decides, then forgets to return: the answer is undefined.
module.exports = function act(state) {
  const answer = { type: state.canCheck ? 'check' : 'fold' };
  answer.decided = true;
};
