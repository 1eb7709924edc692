// #26: Map.prototype.size turned into a getter through a Proxy (the definer sees the Proxy, not the
// prototype); the getter returns the real size, so a check that only reads values sees nothing.
var proto = Object.getPrototypeOf(new Map()), real = Object.getOwnPropertyDescriptor(proto, 'size').get;
var calls = 0;
module.exports = function act(state) {
  if (++calls === 2) {
    Reflect.defineProperty(new Proxy(proto, {}), 'size', { get: function () { return real.call(this); }, configurable: true });
  }
  return state.canCheck ? 'check' : 'fold';
};
