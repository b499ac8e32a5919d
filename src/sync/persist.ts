/**
 * Local state that must survive the process: the outbox and the draft
 * journal. Files live under the state directory, one per account, and are
 * replaced atomically (temp file, fsync, rename, fsync of the directory) with
 * mode 0600, so a crash or `kill -9` leaves either the old or the new file.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";

/**
 * `$TERMCHAT_STATE_DIR`, else `$XDG_STATE_HOME/termchat`, else the platform's
 * usual place (the same convention `conf` follows for settings, but for state).
 */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TERMCHAT_STATE_DIR) return env.TERMCHAT_STATE_DIR;
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, "termchat");
  const home = homedir();
  if (platform === "darwin") return join(home, "Library", "Application Support", "termchat");
  if (platform === "win32") return join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "termchat", "State");
  return join(home, ".local", "state", "termchat");
}

/** Which account a file belongs to: the organization and the user. */
export interface AccountRef {
  site: string;
  email: string;
}

/** A stable file-name stem for an account; neither the email nor the site appears in clear. */
export function accountStem(a: AccountRef): string {
  return createHash("sha256").update(`${a.site.replace(/\/+$/, "")}\n${a.email.toLowerCase()}`).digest("hex").slice(0, 16);
}

/** Reads a JSON file; undefined when it does not exist or does not parse (a torn temp file never is the real one). */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Removes temp files of `path` left by a process killed mid-write (older than a minute). */
export async function removeStaleTemps(path: string, now = Date.now()): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    const full = join(dir, name);
    try {
      if (now - (await stat(full)).mtimeMs > 60_000) await rm(full, { force: true });
    } catch {
      /* gone already */
    }
  }
}

/** Replaces `path` with `data` as JSON: all or nothing, private to the user. */
export async function writeJsonAtomic(path: string, dir: string, data: unknown): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fh = await open(tmp, "w", 0o600);
  try {
    await fh.writeFile(JSON.stringify(data));
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  // Make the rename itself durable (not supported everywhere: best effort).
  try {
    const d = await open(dir, "r");
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    /* directories cannot be fsync'd on this platform */
  }
}

/**
 * Serialises writes of one file: each call writes the latest state; calls
 * made while a write runs collapse into one more write.
 */
export class FileWriter {
  private running: Promise<void> | undefined;
  private again = false;
  lastError: unknown;

  constructor(
    private readonly path: string,
    private readonly dir: string,
    private readonly snapshot: () => unknown,
  ) {}

  write(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          try {
            await writeJsonAtomic(this.path, this.dir, this.snapshot());
            this.lastError = undefined;
          } catch (err) {
            this.lastError = err;
          }
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Resolves once every requested write has finished. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
