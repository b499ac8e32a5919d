// termchat's stand-in for undici's HTTP/2 client (lib/dispatcher/client-h2.js), put in place by
// scripts/build.mjs. termchat never offers HTTP/2 (undici's `allowH2` stays off, so TLS
// negotiates HTTP/1.1 only and undici never calls this), and the real module loads Node's http2
// and tls modules when it is evaluated: about 11 ms on the start path for nothing.
"use strict";
module.exports = function connectH2() {
  throw new Error("HTTP/2 is not used by termchat (undici's allowH2 is off)");
};
