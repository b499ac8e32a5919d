/**
 * The standard zuliprc: an INI file with an [api] section holding email,
 * key and site. Credentials files must not be readable by others; we write
 * them with mode 0600.
 */
import { chmod, mkdir, readFile, stat, writeFile, rename } from "node:fs/promises";
import { dirname } from "node:path";

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
  /** The file said `insecure=true`: skip nothing, but allow plain http to non-loopback hosts. */
  allowInsecureHttp?: boolean;
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
    certBundle: api.get("cert_bundle") || undefined,
    allowInsecureHttp: /^(true|yes|1)$/i.test(api.get("insecure") ?? ""),
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
