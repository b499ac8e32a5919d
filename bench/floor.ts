/**
 * The start-up floor: node, the bundle's heavy imports and a JSON.parse of the
 * register body (read from a file: no network). Prints ms since process start.
 */
import { readFileSync } from "node:fs";

await Promise.all([import("ink"), import("react"), import("undici"), import("zod")]);
JSON.parse(readFileSync(process.argv[2]!, "utf8"));
process.stdout.write(`${Math.round(performance.now())}\n`);
