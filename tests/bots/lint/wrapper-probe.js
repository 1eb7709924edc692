// Legal, reviewed: a wrapper's feature test (warning only); the actions do not depend on it.
(function (root, factory) {
  const bot = factory();
  if (typeof module !== 'undefined' && module.exports) module.exports = bot;
  else if (typeof window !== 'undefined') window.WrapperBot = bot;
})(this, function () {
  return {
    name: 'Wrapper',
    act(state) { return state.canCheck ? 'check' : 'call'; },
  };
});
