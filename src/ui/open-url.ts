/**
 * Opening a web address: in the browser ($BROWSER, else xdg-open, else
 * open on macOS), started without a shell from an argument vector, detached
 * and silent; where no browser can show it (an SSH session, a Linux
 * console without a display) the address goes to the clipboard through
 * OSC 52 instead. Only http(s) addresses are opened, never a file or a
 * command.
 */
import type { SpawnOptions } from "node:child_process";
import { sanitizeInline } from "../render/sanitize.js";
import { osc52Copy } from "../render/terminal.js";

/** The address, normalised, when it is http(s) with a host; undefined otherwise. */
export function webAddress(raw: string): string | undefined {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if ((u.protocol !== "http:" && u.protocol !== "https:") || u.hostname === "") return undefined;
  return u.href;
}

/** Where no browser window can appear: over SSH, or on Linux (and BSDs) without X or Wayland. */
export function headless(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (env["SSH_CONNECTION"] || env["SSH_TTY"]) return true;
  if (platform === "darwin" || platform === "win32") return false;
  return !env["DISPLAY"] && !env["WAYLAND_DISPLAY"];
}

export interface Launch {
  command: string;
  args: string[];
}

/**
 * The program and arguments that open `url` (already checked by webAddress).
 * $BROWSER may list several programs (":"-separated; the first is used) and
 * carry arguments; `%s` in it stands for the address, else it goes last.
 */
export function browserCommand(url: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Launch | undefined {
  const browser = env["BROWSER"]?.split(":").map((s) => s.trim()).find((s) => s !== "");
  if (browser) {
    const [command, ...rest] = browser.split(/\s+/);
    const args = rest.some((a) => a.includes("%s")) ? rest.map((a) => a.replace(/%s/g, url)) : [...rest, url];
    return { command: command!, args };
  }
  if (platform === "darwin") return { command: "open", args: [url] };
  if (platform === "win32") return undefined;
  return { command: "xdg-open", args: [url] };
}

/** The OSC 52 sequence that puts the address on the clipboard (controls removed, base64). */
export function clipboardSequence(text: string): string {
  return osc52Copy(sanitizeInline(text, { keepEmoji: true }));
}

export type OpenPlan = { kind: "launch"; launch: Launch } | { kind: "copy"; sequence: string } | { kind: "refuse"; reason: string };

/** What opening `raw` does here. */
export function planOpen(raw: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): OpenPlan {
  const url = webAddress(raw);
  if (!url) return { kind: "refuse", reason: `Not opened: only http(s) addresses are (${sanitizeInline(raw).slice(0, 60)})` };
  const launch = headless(env, platform) ? undefined : browserCommand(url, env, platform);
  return launch ? { kind: "launch", launch } : { kind: "copy", sequence: clipboardSequence(url) };
}

export type Spawner = (command: string, args: string[], options: SpawnOptions) => { once(event: string, listener: (arg?: unknown) => void): unknown; unref(): void };

/**
 * Starts the browser without a shell, detached, its output ignored; resolves once it has started
 * (or failed to). Node's child-process modules load on the first launch, not with the client.
 */
export async function launchBrowser(l: Launch, spawner?: Spawner): Promise<{ ok: true } | { ok: false; message: string }> {
  const spawn = spawner ?? ((await import("node:child_process")).spawn as unknown as Spawner);
  return new Promise((done) => {
    let child: ReturnType<Spawner>;
    try {
      child = spawn(l.command, l.args, { shell: false, detached: true, stdio: "ignore" });
    } catch (err) {
      done({ ok: false, message: `Could not start ${sanitizeInline(l.command)}: ${(err as Error).message}` });
      return;
    }
    child.once("error", (err) => done({ ok: false, message: `Could not start ${sanitizeInline(l.command)}: ${(err as Error).message}` }));
    child.once("spawn", () => {
      child.unref();
      done({ ok: true });
    });
  });
}
