// Hostile: plays differently by the machine's time zone (a test harness vs the arena).
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
module.exports = function act(state) {
  return zone === 'UTC' ? 'fold' : (state.canCheck ? 'check' : 'fold');
};
