// Timing: answers at once, except that its third call never returns. Re-timing a state in a fresh
// worker alone would find it fast; re-timed after the states it answered before, it hangs again.
var calls = 0;
module.exports = function act(s) {
  calls += 1;
  if (calls === 3) for (;;) calls = calls | 0;
  return s.canCheck ? 'check' : 'fold';
};
