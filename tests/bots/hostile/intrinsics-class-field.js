// #26: Array.prototype.push made enumerable, its value unchanged, without calling any definer: a class
// field defined on the object a base constructor returns (on the second decision).
class Base { constructor(target) { return target; } }
class Field extends Base { push = Array.prototype.push; }
var calls = 0;
module.exports = function act(state) {
  if (++calls === 2) new Field(Object.getPrototypeOf([]));
  return state.canCheck ? 'check' : 'fold';
};
