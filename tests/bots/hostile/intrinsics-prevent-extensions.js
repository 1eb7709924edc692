// #26: Array.prototype made non-extensible on the first decision.
var done = false;
module.exports = function act(state) {
  if (!done) { Object.preventExtensions(Object.getPrototypeOf([])); done = true; }
  return state.canCheck ? 'check' : 'fold';
};
