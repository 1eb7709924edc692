'use strict';
// Throws a 1 MiB message on every decision.
var big = 'm'.repeat(1 << 20);
module.exports = function act() {
  throw new Error(big);
};
