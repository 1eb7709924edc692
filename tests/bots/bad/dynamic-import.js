'use strict';

// import() loads external code at run time.
let helper = null;
import('./helper.js').then((m) => {
  helper = m;
});

module.exports = function act(state) {
  return { type: state.canCheck || helper ? 'check' : 'fold' };
};
