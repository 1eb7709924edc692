// Hostile: unseeded entropy through an alias of the global object and a constant key.
const root = this;
const key = 'cry' + 'pto';
module.exports = {
  name: 'Entropy Alias',
  act(state) {
    const bits = new Uint32Array(1);
    root[key].getRandomValues(bits);
    return bits[0] % 2 === 0 && state.canCheck ? 'check' : 'fold';
  },
};
