/**
 * The settings file, config.json in the user's configuration directory: $XDG_CONFIG_HOME/termchat
 * (else ~/.config/termchat); ~/Library/Preferences/termchat on macOS; %APPDATA%\termchat\Config on
 * Windows. Read whole, written whole through a temporary file and a rename, so an interrupted
 * write never leaves half a file behind.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export function settingsDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (platform === "darwin") return join(home, "Library", "Preferences", "termchat");
  if (platform === "win32") return join(env.APPDATA || join(home, "AppData", "Roaming"), "termchat", "Config");
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "termchat");
}

export class JsonFile {
  constructor(readonly path: string) {}

  /** The parsed file; undefined when there is none. Throws when it cannot be read or is not JSON. */
  read(): unknown {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
    return text.trim() === "" ? undefined : JSON.parse(text);
  }

  /** Sets top-level keys: what the file holds now (other keys included) with `patch` on top. */
  update(patch: Record<string, unknown>): void {
    let current: unknown;
    try {
      current = this.read();
    } catch {
      current = undefined; // unreadable: replaced
    }
    const base = current !== null && typeof current === "object" && !Array.isArray(current) ? current : {};
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify({ ...base, ...patch }, undefined, "\t") + "\n");
      renameSync(temporary, this.path);
    } catch (err) {
      rmSync(temporary, { force: true });
      throw err;
    }
  }
}
