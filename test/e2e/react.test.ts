/**
 * The built binary in an 80×24 tmux terminal: react to the newest message
 * with +, see the count on screen and the reaction on the server; copy a
 * link to it (OSC 52 in the raw output); the pane follows a resize.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { osc52Copy } from "../../src/render/terminal.js";
import { apiAs, ensureBuilt, freePort, startApp } from "./app.js";
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

describe("reactions in tmux", () => {
  it("+ on the newest message shows 👍 1 at 80×24 and the server has the reaction", async () => {
    dir = mkdtempSync(join(tmpdir(), "termchat-react-"));
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    session = await startApp(["--demo", "--port", String(port)], { cols: 80, rows: 24, logFile: join(dir, "raw.log") });
    await session.waitFor(/connected/, { timeoutMs: 15_000 });
    await session.waitFor(/Inbox {2}\d+ unread/); // the home view

    const owner = await apiAs(site, "maya@lighthouse.test");
    const omar = await apiAs(site, "omar@lighthouse.test");
    const reg = await owner("POST", "register", { fetch_event_types: JSON.stringify(["subscription", "realm"]) });
    const general = (reg.subscriptions as Array<{ name: string; stream_id: number }>).find((s) => s.name === "general")!;

    // The combined feed at its newest message; Omar posts: that message is selected.
    await session.sendKeys("a");
    await session.waitFor("›≡ Combined feed");
    await session.waitFor("▌"); // the message pane has the focus
    await session.sendKeys("G");
    const text = `react to me ${Date.now() % 100000}`;
    const posted = await omar("POST", "messages", { type: "stream", to: String(general.stream_id), topic: "e2e react", content: text });
    expect(posted.result).toBe("success");
    const id = posted.id as number;
    await session.waitFor(text, { timeoutMs: 5000 });

    await session.sendKeys("+");
    const screen = await session.waitFor("[👍 1]", { timeoutMs: 5000 });
    expect(screen).toContain(text);
    const check = await owner("GET", `messages/${id}`, { apply_markdown: "false" });
    const reactions = (check.message as { reactions: Array<{ emoji_name: string; user_id: number }> }).reactions;
    const me = (await owner("GET", "users/me")).user_id;
    expect(reactions.map((r) => [r.emoji_name, r.user_id])).toEqual([["+1", me]]);

    // Omar agrees: the count follows the server's event.
    await omar("POST", `messages/${id}/reactions`, { emoji_name: "+1" });
    await session.waitFor("[👍 2]", { timeoutMs: 5000 });

    // Y copies a link to it through OSC 52.
    await session.sendKeys("Y");
    const link = `${site}/#narrow/channel/${general.stream_id}-general/topic/e2e.20react/near/${id}`;
    await session.waitForRaw(osc52Copy(link), { timeoutMs: 5000 });

    // Wider and back: the message and its reactions stay on screen.
    await session.resize(120, 30);
    const wide = await session.waitFor("[👍 2]", { timeoutMs: 5000 });
    expect(wide).toContain(text);
    await session.resize(80, 24);
    const after = await session.waitFor("[👍 2]", { timeoutMs: 5000 });
    expect(after).toContain(text);
  });
});
