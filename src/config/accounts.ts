/**
 * Password login (`termchat login`): asks for what the command line did not
 * give (site, email or username, password), exchanges the password for an
 * API key with fetch_api_key, and writes a zuliprc with mode 0600.
 *
 * From a terminal the password is read with echo off; from a pipe, the
 * missing values are read one per line, in that order (for scripts). The
 * password and the key are never printed, logged or put in an error message.
 */
import { constants } from "node:fs";
import { access, readFile, readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { Writable } from "node:stream";
import { ApiError } from "../api/errors.js";
import { normalizeSite } from "../api/http.js";
import type { fetchApiKey as realFetchApiKey } from "../api/routes/auth.js";
import { ConfigError, parseIni, readPrivateFile, tlsKeys, writeZuliprc as realWriteZuliprc, type ZuliprcAccount } from "./zuliprc.js";

export const defaultZuliprcPath = (): string => join(homedir(), ".zuliprc");

export interface LoginOptions {
  site?: string;
  /** Usually the email; an LDAP username where the server uses LDAP. */
  username?: string;
  /** Where to write the zuliprc (default ~/.zuliprc). */
  configPath?: string;
  allowInsecureHttp?: boolean;
  caFile?: string;
  /** Replace an existing zuliprc. */
  force?: boolean;
}

export interface LoginIO {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (on: boolean) => unknown };
  /** Prompts go here (stderr in the CLI, so stdout stays for results). */
  output: NodeJS.WritableStream;
}

export interface LoginDeps {
  fetchApiKey?: typeof realFetchApiKey;
  writeZuliprc?: (path: string, a: ZuliprcAccount) => Promise<void>;
  /** Whether a file exists (injectable for tests). */
  exists?: (path: string) => Promise<boolean>;
}

export interface LoginResult {
  email: string;
  site: string;
  path: string;
  userId?: number;
}

export class LoginCancelled extends Error {
  constructor() {
    super("login cancelled");
    this.name = "LoginCancelled";
  }
}

/** Reads answers line by line; on a terminal it prints prompts and can hide what is typed. */
export class Prompter {
  private readonly rl: Interface;
  private readonly sink: Writable & { muted: boolean };
  private readonly lines: string[] = [];
  private readonly waiters: Array<{ resolve: (l: string) => void; reject: (e: Error) => void }> = [];
  private closed = false;
  readonly interactive: boolean;

  constructor(private readonly io: LoginIO) {
    this.interactive = Boolean(io.input.isTTY);
    const out = io.output;
    const sink = new Writable({
      write(chunk, encoding, cb) {
        if (!(sink as Writable & { muted: boolean }).muted) out.write(chunk, encoding);
        cb();
      },
    }) as Writable & { muted: boolean };
    sink.muted = false;
    this.sink = sink;
    this.rl = createInterface({ input: io.input, output: sink, terminal: this.interactive });
    this.rl.on("line", (line) => {
      const w = this.waiters.shift();
      if (w) w.resolve(line);
      else this.lines.push(line);
    });
    this.rl.on("SIGINT", () => this.fail(new LoginCancelled()));
    this.rl.on("close", () => this.fail(new LoginCancelled()));
  }

  private fail(err: Error): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(err);
  }

  private next(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.closed) return Promise.reject(new LoginCancelled());
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  async ask(question: string): Promise<string> {
    if (this.interactive) this.io.output.write(question);
    return (await this.next()).trim();
  }

  /** Like ask, with echo off on a terminal. The answer is not trimmed (spaces may be part of a password). */
  async askSecret(question: string): Promise<string> {
    if (!this.interactive) return this.next();
    this.io.output.write(question);
    this.sink.muted = true;
    try {
      return await this.next();
    } finally {
      this.sink.muted = false;
      this.io.output.write("\n");
    }
  }

  close(): void {
    this.closed = true;
    this.rl.removeAllListeners("close");
    this.rl.close();
  }
}

async function fileExists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/** Logs in with a password and writes the zuliprc. Throws ApiError (refused), NetworkError, ConfigError, SiteError. */
export async function passwordLogin(o: LoginOptions, io: LoginIO, deps: LoginDeps = {}): Promise<LoginResult> {
  // The route (and its schemas) load only for a login: choosing an account at start needs neither.
  const fetchApiKey = deps.fetchApiKey ?? (await import("../api/routes/auth.js")).fetchApiKey;
  const write = deps.writeZuliprc ?? realWriteZuliprc;
  const exists = deps.exists ?? fileExists;
  const path = resolve(o.configPath ?? defaultZuliprcPath());
  if (!o.force && (await exists(path))) {
    throw new ConfigError(`${path} already exists; pass --force to replace it, or --config PATH to write elsewhere`);
  }
  let ca: string | undefined;
  if (o.caFile) {
    ca = await readFile(o.caFile, "utf8").catch(() => {
      throw new ConfigError(`cannot read the CA bundle ${o.caFile}`);
    });
  }
  const prompter = new Prompter(io);
  try {
    const siteText = o.site ?? (await prompter.ask("Server URL (e.g. https://chat.example.com): "));
    if (!siteText) throw new ConfigError("no server URL given");
    const site = normalizeSite(siteText, o.allowInsecureHttp);
    const username = o.username ?? (await prompter.ask("Email (or username): "));
    if (!username) throw new ConfigError("no email or username given");
    const password = await prompter.askSecret("Password: ");
    if (!password) throw new ConfigError("no password given");
    prompter.close();
    let res;
    try {
      res = await fetchApiKey(site.href, username, password, { allowInsecureHttp: o.allowInsecureHttp, ca });
    } catch (err) {
      // The server's own words are fine to show; make the common case clear.
      if (err instanceof ApiError && (err.status === 401 || err.status === 403 || err.code === "AUTHENTICATION_FAILED")) {
        throw new ApiError(err.status, err.code, `login refused for ${username}: ${err.message}`, err.data, err.retryAfter);
      }
      throw err;
    }
    const siteOut = site.href.replace(/\/+$/, "");
    await write(path, {
      email: res.email,
      key: res.api_key,
      site: siteOut,
      ...(o.caFile ? { certBundle: resolve(o.caFile) } : {}),
    });
    return { email: res.email, site: siteOut, path, ...(res.user_id !== undefined ? { userId: res.user_id } : {}) };
  } finally {
    prompter.close();
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
