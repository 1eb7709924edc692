'use strict';
// A legal bot whose exported name is 4 MiB long (R34: cut to 100 characters).
module.exports = {
  name: 'n'.repeat(1 << 22),
  act: function (state) {
    return state.canCheck ? 'check' : 'fold';
  },
};
