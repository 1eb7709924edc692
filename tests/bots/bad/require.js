'use strict';

// There is no module loader in the worker.
const fs = require('fs');

module.exports = function act(state) {
  return { type: state.canCheck || !fs ? 'check' : 'fold' };
};
