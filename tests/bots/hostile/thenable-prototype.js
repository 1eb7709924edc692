'use strict';
// Every object gets a then(): objects the worker builds look like Promises too.
Reflect.defineProperty(Object.prototype, 'then', { value: function () {}, writable: true, configurable: true });
module.exports = function act(state) {
  return state.canCheck ? 'check' : 'fold';
};
