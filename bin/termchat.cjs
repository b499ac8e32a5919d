#!/usr/bin/env node
"use strict";
const { homedir } = require("node:os");
const { join } = require("node:path");
const { setFlagsFromString } = require("node:v8");
const { runBundle } = require("./run-bundle.cjs");
const { NODE_MODULES_FIRST, V8_FLAGS } = require("./v8-flags.cjs");

for (const name of NODE_MODULES_FIRST) require(name);
// For the start trace: what Node had loaded when the flags changed.
performance.mark("termchat:v8-flags", { detail: process.moduleLoadList.length });
for (const flag of V8_FLAGS) setFlagsFromString(flag);
const args = process.argv.slice(2);
// The compiled code is kept in termchat's own (private) cache directory, by the same rule as the
// state cache's (src/sync/cache-file.ts); --no-cache keeps neither.
const base = process.env.XDG_CACHE_HOME?.startsWith("/") ? process.env.XDG_CACHE_HOME : join(homedir(), ".cache");
const { exports: bundle, keepCompiledCode } = runBundle(join(__dirname, "..", "dist", "termchat.cjs"), {
  cacheDir: args.includes("--no-cache") ? undefined : join(base, "termchat", "compiled"),
  // The client, the demo (which runs the reference server too), or a subcommand ("send",
  // "server"…): each keeps the code its own runs compile.
  kind: args[0] && !args[0].startsWith("-") ? args[0] : args.includes("--demo") ? "demo" : "client",
  flags: V8_FLAGS,
});
bundle.run(args, { keepCompiledCode });
