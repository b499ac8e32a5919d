/**
 * Several accounts: they come from ~/.zuliprc and from termchat's accounts directory, and one
 * is chosen by name (or asked for at start). Password login is in login.ts.
 */
import { constants } from "node:fs";
import { access, readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, isAbsolute, join } from "node:path";
import { ConfigError, parseIni, readPrivateFile, tlsKeys, type ZuliprcAccount } from "./zuliprc.js";

/** Whether a file exists. */
export async function fileExists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

// --- Several accounts ------------------------------------------------------
//
// Accounts come from ~/.zuliprc (its [api] section is the account "default";
// each [api:NAME] section is the account NAME) and from the directory
// ~/.config/termchat/accounts (each NAME.zuliprc is the account NAME; its own
// [api:OTHER] sections add OTHER). With --config PATH only that file counts.

/** What an account may be called (it becomes a file name). */
export const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkAccountName(name: string): string {
  if (!ACCOUNT_NAME.test(name)) {
    throw new ConfigError(`"${name}" is not a usable account name (letters, digits, ".", "_" and "-", starting with a letter or digit)`);
  }
  return name;
}

export interface AccountPaths {
  /** The classic single-account file (~/.zuliprc). */
  zuliprc: string;
  /** One NAME.zuliprc per account (~/.config/termchat/accounts). */
  accountsDir: string;
}

export function defaultAccountPaths(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): AccountPaths {
  const xdg = env.XDG_CONFIG_HOME;
  const config = xdg && isAbsolute(xdg) ? xdg : join(home, ".config");
  return { zuliprc: join(home, ".zuliprc"), accountsDir: join(config, "termchat", "accounts") };
}

/** Where `termchat login --account NAME` writes. */
export function accountFilePath(name: string, paths: AccountPaths = defaultAccountPaths()): string {
  return join(paths.accountsDir, `${checkAccountName(name)}.zuliprc`);
}

export interface NamedAccount {
  name: string;
  /** The file (and section) it was read from. */
  where: string;
  account: ZuliprcAccount;
}

export interface Discovered {
  accounts: NamedAccount[];
  /** Files or sections that could not be used, each saying why. */
  problems: string[];
}

/** The account name of a file's [api] section: NAME for NAME.zuliprc, "default" for ~/.zuliprc. */
export function nameFromPath(path: string): string {
  const b = basename(path);
  if (b === ".zuliprc" || b === "zuliprc") return "default";
  const n = b.replace(/\.zuliprc$/, "").replace(/^\./, "");
  return ACCOUNT_NAME.test(n) ? n : "default";
}

function sectionAccount(s: Map<string, string>, where: string, file: string): ZuliprcAccount {
  // A spectator's entry: a site to read without an account (nothing secret in it).
  if (s.get("spectator")?.trim().toLowerCase() === "true") {
    if (!s.get("site")) throw new ConfigError(`${where} is missing site`);
    return { email: "", key: "", site: s.get("site") as string, spectator: true, ...tlsKeys(s, where, file) };
  }
  const missing = ["email", "key", "site"].filter((k) => !s.get(k));
  if (missing.length) throw new ConfigError(`${where} is missing ${missing.join(", ")}`);
  return {
    email: s.get("email") as string,
    key: s.get("key") as string,
    site: s.get("site") as string,
    ...tlsKeys(s, where, file),
  };
}

/** The accounts in one zuliprc text: [api] as `baseName`, [api:NAME] as NAME; other sections are ignored. */
export function accountsInZuliprc(text: string, path: string, baseName = nameFromPath(path)): Discovered {
  let sections;
  try {
    sections = parseIni(text);
  } catch (err) {
    throw new ConfigError(`${path}: ${(err as Error).message}`);
  }
  const out: Discovered = { accounts: [], problems: [] };
  for (const [section, values] of sections) {
    const m = /^api(?::(.*))?$/.exec(section);
    if (!m) continue;
    const name = m[1] === undefined ? baseName : m[1].trim();
    const where = `${path} [${section}]`;
    if (!ACCOUNT_NAME.test(name)) {
      out.problems.push(`${where}: "${name}" is not a usable account name`);
      continue;
    }
    try {
      out.accounts.push({ name, where, account: sectionAccount(values, where, path) });
    } catch (err) {
      out.problems.push((err as Error).message);
    }
  }
  return out;
}


/** Every configured account. An explicit --config file must be readable; other unusable files become problems. */
export async function discoverAccounts(o: { config?: string; paths?: AccountPaths } = {}): Promise<Discovered> {
  const found: Discovered = { accounts: [], problems: [] };
  const add = (d: Discovered) => {
    found.problems.push(...d.problems);
    for (const a of d.accounts) {
      const first = found.accounts.find((x) => x.name === a.name);
      if (first) found.problems.push(`${a.where}: the account "${a.name}" is already defined in ${first.where}; ignored`);
      else found.accounts.push(a);
    }
  };
  if (o.config) {
    add(accountsInZuliprc(await readPrivateFile(o.config), o.config));
    return found;
  }
  const paths = o.paths ?? defaultAccountPaths();
  const files: Array<{ path: string; name: string }> = [];
  if (await fileExists(paths.zuliprc)) files.push({ path: paths.zuliprc, name: "default" });
  const entries = await readdir(paths.accountsDir).catch(() => [] as string[]);
  for (const e of entries.filter((f) => f.endsWith(".zuliprc")).sort()) {
    files.push({ path: join(paths.accountsDir, e), name: e.slice(0, -".zuliprc".length) });
  }
  for (const f of files) {
    try {
      add(accountsInZuliprc(await readPrivateFile(f.path), f.path, f.name));
    } catch (err) {
      found.problems.push((err as Error).message);
    }
  }
  return found;
}

/** What to do with the accounts found: use one, or let the user choose among several. */
export type AccountSelection = { kind: "one"; account: NamedAccount } | { kind: "choose"; accounts: NamedAccount[] };

/**
 * Picks the account named on the command line, or the only one. Unknown
 * names and empty configurations are errors that say what exists.
 */
export function selectAccount(d: Discovered, name: string | undefined, where: string): AccountSelection {
  const names = d.accounts.map((a) => a.name);
  const known = names.length ? `known accounts: ${names.join(", ")}` : "no accounts are configured";
  const why = d.problems.length ? ` (${d.problems.join("; ")})` : "";
  if (name !== undefined) {
    const hit = d.accounts.find((a) => a.name === name);
    if (!hit) throw new ConfigError(`no account named "${name}"; ${known}${why}`);
    return { kind: "one", account: hit };
  }
  const [only] = d.accounts;
  if (!only) {
    if (d.problems[0]) throw new ConfigError(d.problems.length > 1 ? d.problems.join("\n") : d.problems[0]);
    throw new ConfigError(
      `no account configured (${where}). Run "termchat login", try "termchat --demo", or pass --config PATH.`,
    );
  }
  if (d.accounts.length === 1) return { kind: "one", account: only };
  return { kind: "choose", accounts: d.accounts };
}
