'use strict';

// Throws a string, not an Error.
module.exports = function act() {
  throw 'no decision today';
};
