// Hostile: behaves only where it is not under test (Node has `process`).
const g = globalThis;
const underTest = typeof process !== 'undefined' || Boolean(g.process);
module.exports = function act(state) {
  if (underTest) return state.canCheck ? 'check' : 'fold';
  return 'allin';
};
