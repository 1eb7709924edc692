// Legal: members every browser's Web Worker has (#35), each used as a bot would, with a fallback where
// a host lacks one. The lint reports them as information (R30), never an error or a warning.
var root = typeof self !== 'undefined' ? self : this;
var copy = typeof structuredClone === 'function' ? structuredClone : function (v) { return JSON.parse(JSON.stringify(v)); };
var encoder = typeof TextEncoder === 'function' ? new TextEncoder() : null;
var tag = typeof btoa === 'function' && typeof atob === 'function' ? atob(btoa('bot')) : 'bot';
var chips = typeof Intl === 'object' ? new Intl.NumberFormat('en-US').format(1234) : '1,234';
if (typeof window !== 'undefined' && 'TextDecoder' in root) root.memberBot = true;
module.exports = {
  name: 'Members',
  act: function (state) {
    var mine = copy(state.you);
    var bytes = encoder ? encoder.encode(state.street).length : state.street.length;
    return mine.stack > 0 && bytes > 0 && tag === 'bot' && chips.length > 0 && state.canCheck ? 'check' : 'fold';
  },
};
