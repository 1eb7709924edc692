// The Web-Worker members of the bot's global that no well-kept package gives as realm-independent
// JavaScript (ruling R39): TextEncoder and TextDecoder (UTF-8 only, as the Encoding Standard's
// TextEncoder; TextDecoder accepts the labels of UTF-8 only). Appended, by
// conformance/host/worker_globals.py, to core-js's structuredClone, atob, btoa and DOMException in
// one script that both hosts evaluate inside the bot's realm before the bootstrap
// (worker_bootstrap.js): every function the bot can reach is made in its own realm.
(function () {
  'use strict';
  var G = globalThis;
  var defineProperty = Object.defineProperty, fromCharCode = String.fromCharCode, U8 = Uint8Array,
      isView = ArrayBuffer.isView, TypeErrorCtor = TypeError, RangeErrorCtor = RangeError,
      StringCtor = String;
  var UTF8_LABELS = ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8'];
  function install(name, value) {
    if (typeof G[name] !== 'undefined') return;   // a realm that has it natively keeps it
    defineProperty(G, name, {value: value, writable: true, enumerable: false, configurable: true});
  }
  function method(proto, name, fn) {
    defineProperty(proto, name, {value: fn, writable: true, enumerable: true, configurable: true});
  }
  function getter(proto, name, fn) {
    defineProperty(proto, name, {get: fn, enumerable: true, configurable: true});
  }
  function tag(proto, name) {
    defineProperty(proto, Symbol.toStringTag, {value: name, configurable: true});
  }
  // UTF-8 of a string, a lone surrogate as U+FFFD (USVString conversion).
  function utf8(s) {
    var out = [], n = 0;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xD800 && c <= 0xDFFF) {
        var d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xDBFF && d >= 0xDC00 && d <= 0xDFFF) { c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00); i++; }
        else c = 0xFFFD;
      }
      if (c < 0x80) out[n++] = c;
      else if (c < 0x800) { out[n++] = 0xC0 | (c >> 6); out[n++] = 0x80 | (c & 63); }
      else if (c < 0x10000) { out[n++] = 0xE0 | (c >> 12); out[n++] = 0x80 | ((c >> 6) & 63); out[n++] = 0x80 | (c & 63); }
      else {
        out[n++] = 0xF0 | (c >> 18); out[n++] = 0x80 | ((c >> 12) & 63);
        out[n++] = 0x80 | ((c >> 6) & 63); out[n++] = 0x80 | (c & 63);
      }
    }
    return new U8(out);
  }
  var ENCODER = new WeakSet();
  function TextEncoder() {
    if (!new.target) throw new TypeErrorCtor("Failed to construct 'TextEncoder': Please use the 'new' operator");
    ENCODER.add(this);
  }
  function encoder(self) {
    if (!ENCODER.has(self)) throw new TypeErrorCtor('Illegal invocation');
    return self;
  }
  getter(TextEncoder.prototype, 'encoding', function encoding() { encoder(this); return 'utf-8'; });
  method(TextEncoder.prototype, 'encode', function encode(input) {
    encoder(this);
    return utf8(input === undefined ? '' : StringCtor(input));
  });
  method(TextEncoder.prototype, 'encodeInto', function encodeInto(source, destination) {
    encoder(this);
    if (!(destination instanceof U8)) throw new TypeErrorCtor('encodeInto: the destination must be a Uint8Array');
    var s = StringCtor(source), read = 0, written = 0;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i), units = 1;
      if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.length) {
        var d = s.charCodeAt(i + 1);
        if (d >= 0xDC00 && d <= 0xDFFF) units = 2;
      }
      var bytes = utf8(s.slice(i, i + units));
      if (written + bytes.length > destination.length) break;
      destination.set(bytes, written);
      written += bytes.length; read += units; i += units - 1;
    }
    return {read: read, written: written};
  });
  tag(TextEncoder.prototype, 'TextEncoder');

  var DECODER = new WeakMap();   // decoder -> {fatal, ignoreBOM}
  function TextDecoder(label, options) {
    if (!new.target) throw new TypeErrorCtor("Failed to construct 'TextDecoder': Please use the 'new' operator");
    var name = label === undefined ? 'utf-8' : StringCtor(label).trim().toLowerCase();
    if (UTF8_LABELS.indexOf(name) < 0) {
      throw new RangeErrorCtor("Failed to construct 'TextDecoder': The encoding label provided ('" + label +
                               "') is invalid or not supported in the bot's worker (UTF-8 only, ruling R39).");
    }
    var o = options === undefined || options === null ? {} : options;
    DECODER.set(this, {fatal: !!o.fatal, ignoreBOM: !!o.ignoreBOM});
  }
  function decoder(self) {
    var d = DECODER.get(self);
    if (d === undefined) throw new TypeErrorCtor('Illegal invocation');
    return d;
  }
  getter(TextDecoder.prototype, 'encoding', function encoding() { decoder(this); return 'utf-8'; });
  getter(TextDecoder.prototype, 'fatal', function fatal() { return decoder(this).fatal; });
  getter(TextDecoder.prototype, 'ignoreBOM', function ignoreBOM() { return decoder(this).ignoreBOM; });
  // The Encoding Standard's UTF-8 decoder: each maximal invalid subpart is one U+FFFD (or, fatal, a TypeError).
  method(TextDecoder.prototype, 'decode', function decode(input) {
    var d = decoder(this), bytes;
    if (input === undefined) bytes = new U8(0);
    else if (input instanceof ArrayBuffer) bytes = new U8(input);
    else if (isView(input)) bytes = new U8(input.buffer, input.byteOffset, input.byteLength);
    else throw new TypeErrorCtor("Failed to execute 'decode' on 'TextDecoder': parameter 1 is not of type 'ArrayBuffer'");
    var out = '', chunk = [], i = 0, n = bytes.length;
    if (!d.ignoreBOM && n >= 3 && bytes[0] === 0xEF && bytes[1] === 0xBB && bytes[2] === 0xBF) i = 3;
    function flush() { out += fromCharCode.apply(null, chunk); chunk.length = 0; }
    function bad() {
      if (d.fatal) throw new TypeErrorCtor("Failed to execute 'decode' on 'TextDecoder': The encoded data was not valid.");
      chunk[chunk.length] = 0xFFFD;
    }
    while (i < n) {
      var b = bytes[i], need, cp, lower = 0x80, upper = 0xBF;
      if (b < 0x80) { chunk[chunk.length] = b; i++; }
      else {
        if (b >= 0xC2 && b <= 0xDF) { need = 1; cp = b & 0x1F; }
        else if (b >= 0xE0 && b <= 0xEF) { need = 2; cp = b & 0x0F; if (b === 0xE0) lower = 0xA0; if (b === 0xED) upper = 0x9F; }
        else if (b >= 0xF0 && b <= 0xF4) { need = 3; cp = b & 0x07; if (b === 0xF0) lower = 0x90; if (b === 0xF4) upper = 0x8F; }
        else { bad(); i++; need = 0; }
        if (need > 0) {
          var j = 1;
          for (; j <= need; j++) {
            var c = i + j < n ? bytes[i + j] : -1;
            if (c < lower || c > upper) break;
            cp = (cp << 6) | (c & 0x3F);
            lower = 0x80; upper = 0xBF;
          }
          if (j <= need) { bad(); i += j; }
          else {
            i += need + 1;
            if (cp >= 0x10000) { cp -= 0x10000; chunk[chunk.length] = 0xD800 + (cp >> 10); chunk[chunk.length] = 0xDC00 + (cp & 0x3FF); }
            else chunk[chunk.length] = cp;
          }
        }
      }
      if (chunk.length >= 8192) flush();
    }
    flush();
    return out;
  });
  tag(TextDecoder.prototype, 'TextDecoder');
  install('TextEncoder', TextEncoder);
  install('TextDecoder', TextDecoder);
})();
