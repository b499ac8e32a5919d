/**
 * The demo says, with the built binary in tmux, that its organization lives
 * in memory and is gone at exit, and how to keep one: in the status line at
 * start (over several rows where the terminal is narrow, the connection's
 * state staying in its row) and once more in the terminal after quitting.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, freePort, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
});

/** Matches `text` with any run of spaces and line breaks between its words: a notice wrapped over rows reads whole. */
const spread = (text: string) => new RegExp(text.split(" ").map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"));

const START = "Demo: this organization lives in memory and is gone at exit. To keep one: termchat server --zuliprc-dir DIR, then termchat --config DIR/maya.zuliprc";
const END = "termchat: The demo organization lived in memory and is gone. To keep one: termchat server --zuliprc-dir DIR, then termchat --config DIR/maya.zuliprc";

describe.each([
  [120, 36],
  [80, 24],
  [50, 15],
])("the demo in a %i×%i terminal", (cols, rows) => {
  it("says at start that its organization is gone at exit and how to keep one, and says it again after quitting", async () => {
    session = await startApp(["--demo", "--port", String(await freePort())], { cols, rows });
    const screen = await session.waitFor(spread(START), { timeoutMs: 15_000 });
    // The connection's state keeps its row, the last one the app uses.
    const used = screen.split("\n").filter((l) => l.trim() !== "");
    expect(used.at(-1)).toMatch(/^● connected/);
    // The next key clears it.
    await session.sendKeys("Escape");
    await session.waitForGone("lives in memory");
    await session.sendKeys("Q");
    expect(await session.waitForExit({ timeoutMs: 10_000 })).toBe(0);
    // Written after the app's last frame, as the terminal wraps it (even in the middle of a word).
    expect((await session.capture()).replace(/\s+/g, "")).toContain(END.replace(/\s+/g, ""));
  });
});
