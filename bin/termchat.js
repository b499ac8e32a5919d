#!/usr/bin/env node
import module from "node:module";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { V8_FLAGS } from "./v8-flags.js";

for (const flag of V8_FLAGS) setFlagsFromString(flag);
// Node ≥ 22.1 keeps the bundle's compiled code between runs, here in termchat's own (private) cache
// directory; Node 20 has no such cache. The bundle is imported after, so that it is compiled with it.
if (module.enableCompileCache && !process.argv.includes("--no-cache")) {
  // The same directory rule as the state cache's (src/sync/cache-file.ts), which loads only with the bundle.
  const base = process.env.XDG_CACHE_HOME?.startsWith("/") ? process.env.XDG_CACHE_HOME : join(homedir(), ".cache");
  const dir = join(base, "termchat", "compiled");
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    module.enableCompileCache(dir);
  } catch {
    // no cache: the start is only slower
  }
}
await import("../dist/termchat.js");
