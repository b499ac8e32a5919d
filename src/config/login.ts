/**
 * Password login (`termchat login`): asks for what the command line did not
 * give (site, email or username, password), exchanges the password for an
 * API key with fetch_api_key, and writes a zuliprc with mode 0600.
 *
 * From a terminal the password is read with echo off; from a pipe, the
 * missing values are read one per line, in that order (for scripts). The
 * password and the key are never printed, logged or put in an error message.
 * (Only a login loads this module, and with it Node's readline.)
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { Writable } from "node:stream";
import { ApiError } from "../api/errors.js";
import { normalizeSite } from "../api/site.js";
import type { fetchApiKey as realFetchApiKey } from "../api/routes/auth.js";
import { fileExists } from "./accounts.js";
import { ConfigError, writeZuliprc as realWriteZuliprc, type ZuliprcAccount } from "./zuliprc.js";

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
    return await exchangeAndWrite({ site, username, password, path, caFile: o.caFile, ca, allowInsecureHttp: o.allowInsecureHttp }, fetchApiKey, write);
  } finally {
    prompter.close();
  }
}

/**
 * The password exchanged for the API key, and the zuliprc written (0600): what `termchat login`
 * does once it has asked, and what the app's "Add an account" does with its form.
 */
export async function exchangeAndWrite(
  o: { site: URL; username: string; password: string; path: string; caFile?: string; ca?: string; allowInsecureHttp?: boolean },
  fetchApiKey: typeof realFetchApiKey,
  write: (path: string, a: ZuliprcAccount) => Promise<void> = realWriteZuliprc,
): Promise<LoginResult> {
  let res;
  try {
    res = await fetchApiKey(o.site.href, o.username, o.password, { allowInsecureHttp: o.allowInsecureHttp, ca: o.ca });
  } catch (err) {
    // The server's own words are fine to show; make the common case clear.
    if (err instanceof ApiError && (err.status === 401 || err.status === 403 || err.code === "AUTHENTICATION_FAILED")) {
      throw new ApiError(err.status, err.code, `login refused for ${o.username}: ${err.message}`, err.data, err.retryAfter);
    }
    throw err;
  }
  const siteOut = o.site.href.replace(/\/+$/, "");
  await write(o.path, {
    email: res.email,
    key: res.api_key,
    site: siteOut,
    ...(o.caFile ? { certBundle: resolve(o.caFile) } : {}),
  });
  return { email: res.email, site: siteOut, path: o.path, ...(res.user_id !== undefined ? { userId: res.user_id } : {}) };
}
