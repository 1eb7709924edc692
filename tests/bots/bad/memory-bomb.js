'use strict';

// Keeps arrays of a million numbers until the worker runs out of memory. (Doubling a string
// no longer does: quickjs-ng, like browsers, throws "string too long" first.)
module.exports = function act() {
  const kept = [];
  for (;;) kept.push(new Array(1e6).fill(1));
};
