'use strict';

// House sample, a calling station: check when it is free, otherwise call.
// A call commits exactly toCall (capped at the stack), so it is always legal
// when checking is not.
module.exports = {
  name: 'Sample Caller',
  act(state) {
    return { type: state.canCheck ? 'check' : 'call' };
  }
};
