// A compliant bot that formats its chip count with Intl.NumberFormat for a (silent) console log,
// as browser bots do (issue #35). V8 has Intl (en-US, UTC pinned: R39); QuickJS has none, and the
// bot gets an error naming Intl, the host and R39 there.
'use strict';
var format = new Intl.NumberFormat('en-US');
module.exports = function act(s) {
  console.log('stack ' + format.format(s.you.stack));
  return s.canCheck ? 'check' : 'fold';
};
