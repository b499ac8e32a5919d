/** Waiting for something on a tmux screen in a benchmark, without taking the client's CPU while it starts. */
import type { TmuxSession } from "../test/e2e/tmux.js";

/**
 * Waits for `re` on screen. Each look is a tmux process: until `closeFrom` (ms from now) it looks
 * every 100 ms, so that the looking does not take the client's CPU while it starts (two cores
 * here), then every 5 ms for a precise time.
 */
export async function waitScreen(s: TmuxSession, re: RegExp, timeoutMs = 60_000, closeFrom = 0): Promise<string> {
  const start = Date.now();
  const deadline = start + timeoutMs;
  for (let i = 0; i < 100_000 && Date.now() < deadline; i++) {
    const screen = await s.capture();
    if (re.test(screen)) return screen;
    await new Promise((r) => setTimeout(r, Date.now() - start < closeFrom ? 100 : 5));
  }
  throw new Error(`not on screen within ${timeoutMs} ms: ${re}\n${await s.capture()}`);
}
