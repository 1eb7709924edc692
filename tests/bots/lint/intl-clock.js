// Hostile: the current second, read through Intl instead of Date.
const clock = new Intl.DateTimeFormat('en-US', { second: 'numeric' });
module.exports = function act(state) {
  const second = Number(clock.format());
  return second % 2 === 0 && state.canCheck ? 'check' : 'fold';
};
