'use strict';
// Calls eval 200 times a decision, catching every ContractViolation: a flood of violations.
module.exports = function act(state) {
  for (var i = 0; i < 200; i++) {
    try { (0, eval)('1'); } catch (e) { /* hidden */ }
  }
  return state.canCheck ? 'check' : 'fold';
};
