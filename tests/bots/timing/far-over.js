// Timing: never answers (a busy loop without end), in QuickJS and in V8 alike.
module.exports = function act(s) {
  var x = 0;
  for (;;) x = (x * 31 + 1) | 0;
};
