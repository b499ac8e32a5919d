/**
 * Which account a command uses (--site/--email/--api-key, --config, or
 * ~/.zuliprc) and an ApiClient for it (with --ca-file and
 * --allow-insecure-http applied). Shared by the TUI and the scriptable
 * subcommands.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../api/http.js";
import { ConfigError, readZuliprc } from "../config/zuliprc.js";
import { VERSION } from "./version.js";

/** The account options every command takes. */
export interface AccountOptions {
  config?: string;
  site?: string;
  email?: string;
  apiKey?: string;
  allowInsecureHttp: boolean;
  caFile?: string;
}

export interface Account {
  site: string;
  email: string;
  apiKey: string;
  allowInsecureHttp: boolean;
  caFile?: string;
}

export async function resolveAccount(o: AccountOptions): Promise<Account> {
  if (o.site && o.email && o.apiKey) {
    return { site: o.site, email: o.email, apiKey: o.apiKey, allowInsecureHttp: o.allowInsecureHttp, caFile: o.caFile };
  }
  const path = o.config ?? join(homedir(), ".zuliprc");
  try {
    const rc = await readZuliprc(path);
    return {
      site: rc.site,
      email: rc.email,
      apiKey: rc.key,
      allowInsecureHttp: o.allowInsecureHttp || Boolean(rc.allowInsecureHttp),
      caFile: o.caFile ?? rc.certBundle,
    };
  } catch (err) {
    if (!o.config && err instanceof ConfigError && /no such file/.test(err.message)) {
      throw new ConfigError(
        `no account configured (${path} does not exist). Run "termchat login", try "termchat --demo", or pass --config PATH.`,
      );
    }
    throw err;
  }
}

export async function readCaFile(path: string | undefined): Promise<string | undefined> {
  if (!path) return undefined;
  return readFile(path, "utf8").catch(() => {
    throw new ConfigError(`cannot read the CA bundle ${path}`);
  });
}

export async function clientForAccount(a: Account): Promise<ApiClient> {
  const ca = await readCaFile(a.caFile);
  return new ApiClient(
    { site: a.site, email: a.email, apiKey: a.apiKey },
    { allowInsecureHttp: a.allowInsecureHttp, ca, userAgent: `termchat/${VERSION}` },
  );
}
