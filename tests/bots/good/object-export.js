'use strict';

// The object export with a name; act is called with `this` the exported object.
module.exports = {
  name: 'Object Export',
  limit: 3,
  act(state) {
    if (state.canCheck) return { type: 'check' };
    return { type: state.toCall <= this.limit * state.blinds[1] ? 'call' : 'fold' };
  }
};
