// #26: Math.max replaced (by a faster one, it says), through an alias.
var M = [Math][0], max = M.max;
M['m' + 'ax'] = function (a, b) { return a > b ? a : b; };
module.exports = function act(state) {
  return state.canCheck ? 'check' : (M.max(state.toCall, 0) > 100 ? 'fold' : 'call');
};
