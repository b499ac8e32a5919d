/**
 * The standard zuliprc: an INI file with an [api] section holding email,
 * key and site. Credentials files must not be readable by others; we write
 * them with mode 0600.
 */
import { chmod, mkdir, readFile, stat, writeFile, rename } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export interface ZuliprcAccount {
  email: string;
  key: string;
  site: string;
  /** PEM file of extra certificate authorities to trust. */
  certBundle?: string;
  /** Client certificate (PEM) for mutual TLS, and its key when it is a file of its own. */
  clientCert?: string;
  clientCertKey?: string;
  /** The file said `insecure=true`: TLS certificates are not verified, and plain http to any host is allowed. */
  insecure?: boolean;
  allowInsecureHttp?: boolean;
  /** `spectator=true`: no account, only the organization's web-public channels are read (email and key are empty). */
  spectator?: boolean;
}

/** A path from a zuliprc: `~` is the home directory, a relative path is taken from the file's directory. */
export function configPath(value: string, file: string): string {
  const expanded = value === "~" ? homedir() : value.startsWith("~/") ? join(homedir(), value.slice(2)) : value;
  return isAbsolute(expanded) ? expanded : resolve(dirname(resolve(file)), expanded);
}

/**
 * The TLS keys of an [api] section, read as the service's Python bindings read them:
 * `insecure` is "true" or "false" in any case (anything else is an error), `cert_bundle`,
 * `client_cert` and `client_cert_key` are paths, and a key without a certificate is an error.
 */
export function tlsKeys(s: Map<string, string>, where: string, file: string): Pick<ZuliprcAccount, "certBundle" | "clientCert" | "clientCertKey" | "insecure" | "allowInsecureHttp"> {
  const out: ReturnType<typeof tlsKeys> = {};
  const insecure = s.get("insecure");
  if (insecure !== undefined && insecure !== "") {
    const v = insecure.toLowerCase();
    if (v !== "true" && v !== "false") throw new ConfigError(`${where}: insecure is "${insecure}"; it must be true or false`);
    if (v === "true") {
      out.insecure = true;
      out.allowInsecureHttp = true;
    }
  }
  const path = (key: string) => {
    const value = s.get(key);
    return value ? configPath(value, file) : undefined;
  };
  const certBundle = path("cert_bundle");
  const clientCert = path("client_cert");
  const clientCertKey = path("client_cert_key");
  if (clientCertKey && !clientCert) throw new ConfigError(`${where}: client_cert_key is set but client_cert is not`);
  if (certBundle) out.certBundle = certBundle;
  if (clientCert) out.clientCert = clientCert;
  if (clientCertKey) out.clientCertKey = clientCertKey;
  return out;
}

/** Parses INI text into sections of key → value. */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const [n, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      const name = (header[1] as string).trim();
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      continue;
    }
    const eq = line.search(/[=:]/);
    if (eq <= 0 || !current) throw new ConfigError(`line ${n + 1}: expected "key=value" inside a [section], found "${line.slice(0, 40)}"`);
    current.set(line.slice(0, eq).trim().toLowerCase(), line.slice(eq + 1).trim());
  }
  return sections;
}

export function parseZuliprc(text: string, path = "zuliprc"): ZuliprcAccount {
  let sections;
  try {
    sections = parseIni(text);
  } catch (err) {
    throw new ConfigError(`${path}: ${(err as Error).message}`);
  }
  const api = sections.get("api");
  if (!api) throw new ConfigError(`${path}: no [api] section (expected [api] with email, key and site)`);
  const missing = ["email", "key", "site"].filter((k) => !api.get(k));
  if (missing.length) throw new ConfigError(`${path}: [api] is missing ${missing.join(", ")}`);
  return {
    email: api.get("email") as string,
    key: api.get("key") as string,
    site: api.get("site") as string,
    ...tlsKeys(api, `${path} [api]`, path),
  };
}

/** Reads a credentials file, refusing one that others can read. */
export async function readPrivateFile(path: string): Promise<string> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(code === "ENOENT" ? `${path}: no such file` : `${path}: cannot read (${code})`);
  }
  if (!info.isFile()) throw new ConfigError(`${path}: not a regular file`);
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8);
    throw new ConfigError(`${path} holds an API key but is readable by other users (mode ${mode}). Fix it with: chmod 600 ${path}`);
  }
  return readFile(path, "utf8");
}

/** Reads a zuliprc, refusing one that others can read (it holds an API key). */
export async function readZuliprc(path: string): Promise<ZuliprcAccount> {
  return parseZuliprc(await readPrivateFile(path), path);
}

export function formatZuliprc(a: ZuliprcAccount): string {
  const lines = ["[api]", `email=${a.email}`, `key=${a.key}`, `site=${a.site}`];
  if (a.certBundle) lines.push(`cert_bundle=${a.certBundle}`);
  if (a.clientCert) lines.push(`client_cert=${a.clientCert}`);
  if (a.clientCertKey) lines.push(`client_cert_key=${a.clientCertKey}`);
  if (a.insecure) lines.push("insecure=true");
  return lines.join("\n") + "\n";
}

/** Writes atomically with mode 0600 (the directory is created 0700 when missing). */
export async function writeZuliprc(path: string, a: ZuliprcAccount): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, formatZuliprc(a), { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}
