'use strict';

// A raise whose amount is NaN.
module.exports = function act() {
  return { type: 'raise', amount: NaN };
};
