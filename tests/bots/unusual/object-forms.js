// Legal: every answer in the object form; a fold or call carries an amount it does not need.
module.exports = {
  name: 'Object Forms',
  act: function (s) {
    if (s.canCheck) return {type: 'check'};
    if (s.minRaiseTo !== null && s.handNumber % 2 === 0) return {type: 'raise', amount: Math.min(s.minRaiseTo, s.maxRaiseTo)};
    return s.toCall <= s.you.stack / 4 ? {type: 'call', amount: s.toCall} : {type: 'fold', amount: 0};
  }
};
