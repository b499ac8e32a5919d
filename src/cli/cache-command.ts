/**
 * `termchat cache clear [--account NAME]`: removes the local cache (every account's, or one);
 * without an account, termchat's compiled code (the launcher's code cache) goes too.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { UsageError, strictParse } from "./args-base.js";

export const CACHE_HELP = `Usage: termchat cache clear [--account NAME | --config PATH]

Removes the local cache of the last run's state (under $XDG_CACHE_HOME/termchat,
default ~/.cache/termchat): every account's, or only the named account's.
Without an account, termchat's compiled code kept there goes too (the next
start compiles it again). Drafts and unsent messages are kept (they are not in
the cache).
`;

export interface CacheArgs {
  command: "cache";
  action: "clear" | "help";
  account?: string;
  config?: string;
}

export function parseCacheArgs(argv: string[]): CacheArgs {
  const { values, positionals } = strictParse(argv, {
    account: { type: "string" },
    config: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return { command: "cache", action: "help" };
  const [action, extra] = positionals;
  if (action !== "clear") throw new UsageError(action === undefined ? 'say what to do: "termchat cache clear"' : `unknown cache action "${action}" (there is "clear")`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" for "termchat cache clear"`);
  return { command: "cache", action, account: values.account as string | undefined, config: values.config as string | undefined };
}

export async function runCacheCommand(args: CacheArgs, out: (line: string) => void): Promise<void> {
  if (args.action === "help") return out(CACHE_HELP.trimEnd());
  const [{ clearCache, defaultCacheDir }, { normalizeSite }] = await Promise.all([import("../sync/cache-file.js"), import("../api/site.js")]);
  const dir = defaultCacheDir();
  if (args.account === undefined && args.config === undefined) {
    const n = await clearCache(dir);
    const compiled = await clearCompiledCode(join(dir, "compiled"));
    return out(`Removed ${n} cache file${n === 1 ? "" : "s"} from ${dir}${compiled ? ", and termchat's compiled code" : ""}.`);
  }
  const { resolveAccount } = await import("./account.js");
  const account = await resolveAccount({ account: args.account, config: args.config, allowInsecureHttp: true });
  const n = await clearCache(dir, { site: normalizeSite(account.site, true).href, email: account.email });
  out(n ? `Removed the cache of ${account.email}.` : `There was no cache of ${account.email}.`);
}

/** Removes the launcher's code caches (bin/run-bundle.cjs); whether there were any. */
async function clearCompiledCode(dir: string): Promise<boolean> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await rm(dir, { recursive: true, force: true });
  return names.some((name) => name.endsWith(".v8cache"));
}
