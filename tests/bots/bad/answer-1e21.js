'use strict';

// A raise whose amount, 1e21, is beyond the safe integers.
module.exports = function act() {
  return { type: 'raise', amount: 1e21 };
};
