'use strict';
// #26: an accessor on Array.prototype through a prototype reached by value (no global name in sight):
// every array hole now reads 1. The identity checks of the globals (R35) did not see it.
Reflect.defineProperty(Object.getPrototypeOf([]), '0', { get: function () { return 1; }, configurable: true });
module.exports = function act(state) {
  return state.canCheck ? 'check' : 'fold';
};
