/**
 * The launcher's V8 settings (bin/v8-flags.cjs) for benchmarks that run the app in their own
 * process, so they measure what ships. Import it first: it applies them before the rest loads.
 */
import { setFlagsFromString } from "node:v8";
import { V8_FLAGS } from "../bin/v8-flags.cjs";

for (const flag of V8_FLAGS) setFlagsFromString(flag);
