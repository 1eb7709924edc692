'use strict';

// Never finishes loading: the init deadline must stop it.
let spins = 0;
for (;;) {
  spins += 1;
}
module.exports = function act() {
  return 'fold';
};
