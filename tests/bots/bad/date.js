'use strict';

// Reads the wall clock to vary its play.
module.exports = function act(state) {
  let odd = false;
  try {
    odd = Date.now() % 2 === 1;
  } catch (e) {
    odd = false;
  }
  return { type: state.canCheck && !odd ? 'check' : 'fold' };
};
