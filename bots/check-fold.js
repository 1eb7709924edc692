'use strict';

// House sample, the contract's minimal legal bot: check when it is free,
// otherwise fold. Never puts a chip in voluntarily.
module.exports = {
  name: 'Check Fold',
  act(state) {
    return { type: state.canCheck ? 'check' : 'fold' };
  }
};
