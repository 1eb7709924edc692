'use strict';
// An object answer whose type is a fold followed by a megabyte of spaces.
var pad = ' '.repeat(1 << 20);
module.exports = function act() {
  return { type: 'fold' + pad };
};
