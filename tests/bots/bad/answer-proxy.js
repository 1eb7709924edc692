'use strict';

// The answer is a revoked Proxy: reading any property throws a TypeError.
module.exports = function act() {
  const { proxy, revoke } = Proxy.revocable({ type: 'fold' }, {});
  revoke();
  return proxy;
};
