/**
 * Which account a command uses (--site/--email/--api-key, or one of the
 * configured accounts — ~/.zuliprc and ~/.config/termchat/accounts/, or the
 * --config file — picked by --account NAME, being the only one, or the
 * user's choice at start) and an ApiClient for it (with --ca-file and
 * --allow-insecure-http applied). Shared by the TUI and the scriptable
 * subcommands.
 */
import { ApiClient } from "../api/http.js";
import { defaultAccountPaths, discoverAccounts, selectAccount, type AccountPaths, type NamedAccount } from "../config/accounts.js";
import { ConfigError } from "../config/zuliprc.js";
import { readTlsFiles } from "./tls-files.js";
import { VERSION } from "./version.js";

/** The account options every command takes. */
export interface AccountOptions {
  config?: string;
  site?: string;
  email?: string;
  apiKey?: string;
  allowInsecureHttp: boolean;
  caFile?: string;
  /** The account's name (--account): a section [api:NAME] or a file NAME.zuliprc. */
  account?: string;
  /** --spectator with --site: read the organization's web-public channels without an account. */
  spectator?: boolean;
}

export interface Account {
  site: string;
  email: string;
  apiKey: string;
  allowInsecureHttp: boolean;
  caFile?: string;
  clientCert?: string;
  clientCertKey?: string;
  /** Skip TLS verification (the zuliprc's insecure=true). */
  insecure?: boolean;
  /** No account: a spectator of the site's web-public channels (email and key are empty, never sent). */
  spectator?: boolean;
}

/** How a spectator's entry shows where an account's email would. */
export const SPECTATOR_CHOICE = "(spectator: web-public channels, read-only)";

/** An account offered for choosing at start (several configured, none named). */
export interface AccountChoice {
  name: string;
  email: string;
  site: string;
}

export interface ResolveDeps {
  /** Asks the user to choose (a terminal at start); undefined: there is nobody to ask. Returns the name, or undefined when cancelled. */
  choose?: (choices: AccountChoice[]) => Promise<string | undefined>;
  /** Where accounts live (tests point elsewhere). */
  paths?: AccountPaths;
}

export async function resolveAccount(o: AccountOptions, deps: ResolveDeps = {}): Promise<Account> {
  if (o.spectator && o.site) return { site: o.site, email: "", apiKey: "", allowInsecureHttp: o.allowInsecureHttp, caFile: o.caFile, spectator: true };
  if (o.site && o.email && o.apiKey) {
    return { site: o.site, email: o.email, apiKey: o.apiKey, allowInsecureHttp: o.allowInsecureHttp, caFile: o.caFile };
  }
  const paths = deps.paths ?? defaultAccountPaths();
  const found = await discoverAccounts({ config: o.config, paths });
  const where = o.config ?? `neither ${paths.zuliprc} nor ${paths.accountsDir}/NAME.zuliprc exists`;
  const selection = selectAccount(found, o.account, where);
  let chosen: NamedAccount;
  if (selection.kind === "one") chosen = selection.account;
  else {
    const names = selection.accounts.map((a) => a.name);
    if (!deps.choose) {
      throw new ConfigError(`several accounts are configured: ${names.join(", ")}. Pick one with --account NAME.`);
    }
    const name = await deps.choose(selection.accounts.map((a) => ({ name: a.name, email: a.account.spectator ? SPECTATOR_CHOICE : a.account.email, site: a.account.site })));
    const hit = selection.accounts.find((a) => a.name === name);
    if (!hit) throw new ConfigError(`no account chosen (choose one next time with --account NAME: ${names.join(", ")})`);
    chosen = hit;
  }
  return accountOf(chosen, o);
}

/** An account as a command uses it: its zuliprc with the command line's TLS options applied. */
export function accountOf(chosen: NamedAccount, o: Pick<AccountOptions, "allowInsecureHttp" | "caFile">): Account {
  const rc = chosen.account;
  return {
    site: rc.site,
    email: rc.email,
    apiKey: rc.key,
    allowInsecureHttp: o.allowInsecureHttp || Boolean(rc.allowInsecureHttp),
    caFile: o.caFile ?? rc.certBundle,
    ...(rc.clientCert ? { clientCert: rc.clientCert } : {}),
    ...(rc.clientCertKey ? { clientCertKey: rc.clientCertKey } : {}),
    ...(rc.insecure ? { insecure: true } : {}),
    ...(rc.spectator ? { spectator: true } : {}),
  };
}

/**
 * The accounts the app opens at once: with several configured and none named on the command
 * line, every one; those the settings' `connect` names (when it names any that exist) connect
 * at start, the others wait for the user. `connect` reads that setting, asked only when there are
 * several (the settings' schema is not loaded before a single account's register).
 * Undefined when one account applies (named, given by --site, or the only one): resolveAccount's.
 */
export async function resolveSeveral(
  o: AccountOptions,
  connect: () => Promise<string[] | undefined>,
  deps: ResolveDeps = {},
): Promise<Array<Account & { name: string; connect: boolean }> | undefined> {
  // A site named on the command line (with a key, or to read as a spectator) or one account named: that one alone.
  if ((o.site && o.email && o.apiKey) || (o.site && o.spectator) || o.account !== undefined) return undefined;
  const paths = deps.paths ?? defaultAccountPaths();
  const found = await discoverAccounts({ config: o.config, paths });
  if (found.accounts.length < 2) return undefined;
  // Those left out are listed, not connected: the palette connects them.
  const names = await connect();
  const chosen = found.accounts.filter((a) => names?.includes(a.name));
  return found.accounts.map((a) => ({ name: a.name, connect: chosen.length === 0 || chosen.includes(a), ...accountOf(a, o) }));
}

export async function clientForAccount(a: Account, warn?: (line: string) => void): Promise<ApiClient> {
  const tls = await readTlsFiles(a, warn);
  return new ApiClient(
    a.spectator ? { site: a.site, spectator: true } : { site: a.site, email: a.email, apiKey: a.apiKey },
    { allowInsecureHttp: a.allowInsecureHttp, ...tls, userAgent: `termchat/${VERSION}` },
  );
}
