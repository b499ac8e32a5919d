/**
 * Helpers of the tmux driver (tmux.ts): the explicit environment, shell
 * quoting for the commands tmux runs, bounded polling, and process checks.
 */
import { readFileSync } from "node:fs";

export interface WaitOptions {
  /** Give up after this long, default 10000 ms. */
  timeoutMs?: number;
  /** Poll interval, default 50 ms. */
  intervalMs?: number;
}

/** The environment every tmux invocation (and so the server and the program) gets. */
export function baseEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ"]) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  env.LANG = "C.UTF-8";
  env.LC_ALL = "C.UTF-8";
  env.TERM = "xterm-256color";
  env.CI = "false";
  return { ...env, ...extra };
}

/**
 * Quote one word for the shell commands tmux runs (pipe-pane, run-shell):
 * POSIX sh single quotes, and `#` doubled since tmux expands formats first.
 */
export function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`).replaceAll("#", "##")}'`;
}

/** A non-global, non-sticky copy, so `test()` carries no lastIndex state between polls. */
export function toMatcher(match: string | RegExp): (screen: string) => boolean {
  if (typeof match === "string") return (screen) => screen.includes(match);
  const re = new RegExp(match.source, match.flags.replace(/[gy]/g, ""));
  return (screen) => re.test(screen);
}

export function describeMatch(match: string | RegExp): string {
  return typeof match === "string" ? JSON.stringify(match) : String(match);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Run `step` every `intervalMs` until it returns true (done) or "give-up",
 * bounded both in time (`timeoutMs`) and in number of attempts. Resolves to
 * whether it is done.
 */
export async function pollUntil(
  opts: WaitOptions,
  step: () => Promise<boolean | "give-up">,
): Promise<boolean> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const intervalMs = Math.max(1, opts.intervalMs ?? 50);
  const deadline = Date.now() + timeoutMs;
  const maxAttempts = Math.ceil(timeoutMs / intervalMs) + 2;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const result = await step();
    if (result === "give-up") return false;
    if (result) return true;
    const left = deadline - Date.now();
    if (left <= 0) break;
    await sleep(Math.min(intervalMs, left));
  }
  return false;
}

export function screenBlock(screen: string | undefined): string {
  return `--- last screen ---\n${screen ?? "(never captured)"}\n--- end of screen ---`;
}

/** Whether `pid` is a running process (a zombie nobody reaps does not count). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S …" — the state follows the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc (not Linux): trust kill(0)
  }
}

/** Give a hung-up process a moment to go, then SIGKILL it. Never throws. */
export async function reap(pid: number): Promise<void> {
  for (let i = 0; i < 10 && processExists(pid); i++) await sleep(20);
  if (processExists(pid)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}

