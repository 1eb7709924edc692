'use strict';

// An answer whose type is an object nested ten thousand deep.
module.exports = function act() {
  let answer = { type: 'fold' };
  for (let i = 0; i < 10000; i++) answer = { type: answer };
  return answer;
};
