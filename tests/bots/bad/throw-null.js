'use strict';

// Throws null: no name, no message.
module.exports = function act() {
  throw null;
};
