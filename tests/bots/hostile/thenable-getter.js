'use strict';
// A then getter on every object that throws, and one on every array.
Object.defineProperty(Object.prototype, 'then', { get: function () { throw new Error('no then'); }, configurable: true });
Object.defineProperty(Array.prototype, 'then', { value: function () {}, configurable: true });
module.exports = function act(state) {
  return state.canCheck ? 'check' : 'fold';
};
