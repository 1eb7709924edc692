'use strict';
// PokerEngine is frozen; replaces Object.keys through a computed name instead, and rebinds module.
var O = [Object][0], keys = O.keys, g = [globalThis][0];
O['ke' + 'ys'] = function (o) { return keys(o); };
g['mod' + 'ule'] = { exports: function act(state) { return state.canCheck ? 'check' : 'fold'; } };
