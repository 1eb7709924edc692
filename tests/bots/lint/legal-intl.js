// Legal: Intl with fixed inputs (where the host has Intl; the bundled QuickJS has none), its own
// values named crypto and performance, a global alias used for its own state, and feature tests
// of standard and contract globals only. No action depends on any of it.
const money = typeof Intl === 'object' ? new Intl.NumberFormat('en-US') : null;
const epoch = typeof Intl === 'object' ? new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).format(0) : '';
const g = globalThis;
g.handsSeen = 0;
const pick = 'ran' + 'dom';
module.exports = {
  name: 'Legal Intl',
  act(state) {
    g.handsSeen += 1;
    const crypto = { coin: () => Math[pick]() < 0.5 };
    const performance = { label: money ? money.format(state.you.stack) + epoch : String(state.you.stack) };
    if (typeof PokerEngine !== 'object' || typeof state.history === 'undefined') return 'fold';
    if (state.canCheck) return 'check';
    return crypto.coin() && performance.label.length > 0 ? 'call' : 'fold';
  },
};
