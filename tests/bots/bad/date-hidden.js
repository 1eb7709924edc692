'use strict';

// Date reached through a computed global name; the error is swallowed.
const clock = globalThis[['Da', 'te'].join('')];

module.exports = function act(state) {
  let odd = false;
  try {
    odd = clock.now() % 2 === 1;
  } catch (e) {
    odd = false;
  }
  return { type: state.canCheck && !odd ? 'check' : 'fold' };
};
