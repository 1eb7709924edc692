'use strict';

// Loads fine, then never answers.
module.exports = function act() {
  let spins = 0;
  for (;;) {
    spins += 1;
  }
};
