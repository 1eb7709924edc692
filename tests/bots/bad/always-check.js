'use strict';

// Well-formed but often illegal: checks even when facing a bet.
module.exports = function act() {
  return { type: 'check' };
};
