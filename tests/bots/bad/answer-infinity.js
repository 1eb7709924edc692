'use strict';

// A raise whose amount is Infinity.
module.exports = function act() {
  return { type: 'raise', amount: Infinity };
};
