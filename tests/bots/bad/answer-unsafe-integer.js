'use strict';

// A raise whose amount is an integer beyond Number.MAX_SAFE_INTEGER.
module.exports = function act() {
  return { type: 'raise', amount: 2 ** 53 + 2 };
};
