/**
 * The built binary on the demo in tmux: the floor plan in #design shows as
 * half-block art (coloured ▀ cells, tmux never gets graphics escapes), after
 * a placeholder line; v opens it full size in a popup.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, freePort, startApp } from "./app.js";
import { colouredHalfBlocks, pollStyled } from "./half-blocks.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;
let dir: string | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("image previews in tmux", () => {
  it("the demo's floor plan shows as coloured half-blocks, and v opens it full size", async () => {
    dir = mkdtempSync(join(tmpdir(), "termchat-images-"));
    const port = await freePort();
    const log = join(dir, "raw.log");
    session = await startApp(["--demo", "--port", String(port)], { cols: 100, rows: 30, logFile: log, env: { COLORTERM: "truecolor" } });
    await session.waitFor(/connected/, { timeoutMs: 15_000 });
    await session.waitFor(/Inbox {2}\d+ unread/);

    // Search for the message: its results show it with its preview.
    await session.type("/floor plan");
    await session.sendKeys("Enter");
    const screen = await session.waitFor(/▨ floor-plan\.png\s*$/m, { timeoutMs: 10_000 });
    expect(screen).toContain("draft floor plan");
    const art = await pollStyled(session, (s) => colouredHalfBlocks(s) >= 40);
    // The demo's image is a 64×48 gradient: red grows to the right, green downwards.
    expect(colouredHalfBlocks(art)).toBeGreaterThanOrEqual(40);
    const raw = readFileSync(log, "latin1");
    expect(raw).not.toMatch(/\x1b_G|\x1b\]1337;|\x1bP[\d;]*q/); // no graphics protocol inside tmux

    // Full size: a popup as big as the pane, more cells than the thumbnail.
    await session.type("v");
    const popup = await session.waitFor(/floor-plan\.png {2}Esc close/, { timeoutMs: 5000 });
    expect(popup).toContain("floor-plan.png");
    const big = await pollStyled(session, (s) => colouredHalfBlocks(s) > colouredHalfBlocks(art));
    expect(colouredHalfBlocks(big)).toBeGreaterThan(colouredHalfBlocks(art));
    await session.sendKeys("Escape");
    await session.waitForGone(/Esc close/);
  });
});
