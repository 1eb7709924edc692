'use strict';
// Legal: a lone surrogate only in the exported name and in an ignored extra field (R34: U+FFFD).
module.exports = {
  name: 'Lone \ud83d',
  act: function (state) {
    return { type: state.canCheck ? 'check' : 'fold', note: '\ud83d\udc00\udc00', why: { deep: '\ud800' } };
  },
};
