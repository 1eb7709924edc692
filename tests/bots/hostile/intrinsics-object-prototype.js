// #26: a new property on every object, added on the third decision.
var calls = 0;
module.exports = function act(state) {
  if (++calls === 3) Object.getPrototypeOf({}).foo = 'bar';
  return state.canCheck ? 'check' : 'fold';
};
