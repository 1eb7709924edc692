'use strict';
// Answers a Symbol described by a lone surrogate, and throws a string of one every other time.
var n = 0;
module.exports = function act() {
  n += 1;
  if (n % 2) throw '\udc00';
  return Symbol('\ud800');
};
