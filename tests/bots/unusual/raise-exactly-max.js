// Legal: raises exactly maxRaiseTo whenever raising is open (also when minRaiseTo > maxRaiseTo:
// the all-in raise), else checks or calls (a call may be capped at the stack).
module.exports = function act(s) {
  if (s.minRaiseTo !== null) return {type: 'raise', amount: s.maxRaiseTo};
  return s.canCheck ? 'check' : 'call';
};
