#!/usr/bin/env node
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runBundle } from "./run-bundle.js";
import { V8_FLAGS } from "./v8-flags.js";

for (const flag of V8_FLAGS) setFlagsFromString(flag);
const args = process.argv.slice(2);
// The compiled code is kept in termchat's own (private) cache directory, by the same rule as the
// state cache's (src/sync/cache-file.ts); --no-cache keeps neither.
const base = process.env.XDG_CACHE_HOME?.startsWith("/") ? process.env.XDG_CACHE_HOME : join(homedir(), ".cache");
const { exports, keepCompiledCode } = runBundle(fileURLToPath(new URL("../dist/termchat.cjs", import.meta.url)), {
  cacheDir: args.includes("--no-cache") ? undefined : join(base, "termchat", "compiled"),
  // The client, or a subcommand ("send", "server"…): each keeps the code its runs compile.
  kind: args[0] && !args[0].startsWith("-") ? args[0] : "client",
  flags: V8_FLAGS,
});
exports.run(args, { keepCompiledCode });
