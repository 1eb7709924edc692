'use strict';
// Throws an Error whose name and message hold lone surrogates.
module.exports = function act() {
  var e = new Error('broken \ud83d here');
  e.name = 'Bad\udfffError';
  throw e;
};
