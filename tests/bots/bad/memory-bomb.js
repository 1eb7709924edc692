'use strict';

// Doubles a string until the worker runs out of memory.
module.exports = function act() {
  let s = 'x';
  for (;;) {
    s += s;
  }
};
