'use strict';
// Overwrites onmessage and posts a protocol message, both through an alias of the global object.
var w = [self][0];
w['on' + 'message'] = function () {};
module.exports = function act(state) {
  try { w['post' + 'Message']({ type: 'action', action: 'fold' }); } catch (e) { /* hidden */ }
  return state.canCheck ? 'check' : 'fold';
};
