'use strict';

// Unbounded recursion: QuickJS throws a stack overflow error.
function deeper(n) {
  return deeper(n + 1) + 1;
}

module.exports = function act() {
  return deeper(0) > 0 ? 'check' : 'fold';
};
