'use strict';

// The answer's type is a getter that throws when the runner reads it.
module.exports = function act() {
  return {
    get type() {
      throw new Error('read me if you can');
    }
  };
};
