// V8 settings that keep the client's resident memory small. V8 reads each of them when it
// uses it, so setting them at run time, before the bundle loads, takes effect (a flag V8 reads
// only while the process starts, such as --max-semi-space-size, would not):
//
// --liftoff-only: WebAssembly stays on V8's baseline compiler. The optimizing compiler
//   otherwise recompiles the HTTP parser's state machine (one 33 KB function) while the
//   first response arrives: 29 MB of compiler memory and a second of CPU at start. The
//   layout engine's WebAssembly runs a little slower on the baseline tier, a small part
//   of a keystroke's work.
// --semi-space-growth-factor=1: the young generation keeps its initial 1 MB semi-spaces
//   instead of doubling to 8 MB each (16 MB resident for good) while the start allocates.
// --expose-gc: the client asks for one full collection after its first frame
//   (src/ui/startup-memory.ts), which needs this flag. V8's code cache is valid only for the
//   flags it was made with, so the flag is set here, before the bundle is compiled, and not
//   later in the run (a cache written after that would be refused at the next start).
"use strict";
exports.V8_FLAGS = ["--liftoff-only", "--semi-space-growth-factor=1", "--expose-gc"];

// Node.js's own modules that a start loads, loaded by the launcher before it sets the flags
// above. Node compiles its modules from code it carries compiled, and, like ours, that code is
// refused once the flags differ from those it was made with: each of these modules is then
// compiled from its source, 3 to 4 times slower (on Node 20, 18 ms against 6 ms for this list,
// all of it before the register leaves). The list is what the client's start loads (the
// HTTP client and its TLS, the cache file's hash and compression, the terminal);
// TERMCHAT_TRACE_STARTUP names any module a start loads after the flags (src/ui/startup-trace.ts).
exports.NODE_MODULES_FIRST = ["node:process", "node:fs/promises", "node:net", "node:tls", "node:http", "node:assert", "node:zlib", "node:crypto", "node:tty", "node:util/types"];
