'use strict';
// Fast for 100 hands, then never answers: only a full-length table sees it.
module.exports = function act(state) {
  if (state.handNumber > 100) { for (;;) { /* stuck */ } }
  return state.canCheck ? 'check' : 'fold';
};
