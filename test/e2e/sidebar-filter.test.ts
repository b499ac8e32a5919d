/**
 * The sidebar filter (q) with the built binary in tmux against the demo
 * server: it finds topics of channels never opened (fetched from the server
 * when the filter opens), Enter opens the highlighted match itself — the
 * topic, not the channel shown above it — and ↓ moves the one cursor to
 * the next match.
 */
import { afterEach, beforeAll, describe, it } from "vitest";
import { ensureBuilt, freePort, paneTitle, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
});

describe("sidebar filter in a 120×36 terminal", () => {
  it("opens the topic that matches, and the next match after ↓", async () => {
    session = await startApp(["--demo", "--port", String(await freePort())], { cols: 120, rows: 36 });
    await session.waitFor(/connected/, { timeoutMs: 15_000 });
    await session.sendKeys("Escape"); // from the Inbox to the sidebar
    await session.sendKeys("q");
    await session.waitFor("q›");
    // "board" is in the name of #design's topic "new onboarding flow" only.
    await session.type("board");
    // The one cursor (▌) is on the topic's row, not on #design above it.
    await session.waitFor(/ ▾#design[^\n]*\n▌ {4}new onboarding flow/);
    await session.sendKeys("Enter");
    await session.waitFor(paneTitle("#design > new onboarding flow"));

    // "book": #engineering's "on-call handbook" (pinned, first), then #random's "book club".
    await session.sendKeys("Escape", "q");
    await session.type("book");
    await session.waitFor("book club");
    await session.sendKeys("Down", "Enter");
    await session.waitFor(paneTitle("#random > book club"));
  });
});
