#!/usr/bin/env node
import { setFlagsFromString } from "node:v8";
import { V8_FLAGS } from "./v8-flags.js";

for (const flag of V8_FLAGS) setFlagsFromString(flag);
await import("../dist/termchat.js");
