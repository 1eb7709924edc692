'use strict';

// 'raise' alone: invalid, it has no amount.
module.exports = function act() {
  return 'raise';
};
