/** Shared pieces of command-line parsing. */
import { parseArgs, type ParseArgsConfig } from "node:util";

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** node:util parseArgs in strict mode, its errors turned into UsageError. */
export function strictParse<O extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    const msg = (err as Error).message.replace(/\. To specify a positional argument.*$/s, "");
    throw new UsageError(msg);
  }
}
