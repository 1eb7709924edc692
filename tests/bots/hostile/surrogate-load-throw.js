'use strict';
// Throws at load time with a lone surrogate in the message.
throw new TypeError('cannot load \udc01');
