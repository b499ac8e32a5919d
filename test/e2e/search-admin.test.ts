/**
 * The built binary in tmux: a search shows its results with the matched
 * word highlighted (inverse video in the bytes the program wrote), and an
 * administrator changes a channel setting through the command palette,
 * checked over HTTP.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiAs, ensureBuilt, freePort, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;
let dir: string | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("search and the command palette in tmux", () => {
  it("highlights a searched word, and changes a channel's description as the owner", async () => {
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    dir = await mkdtemp(join(tmpdir(), "termchat-e2e-search-"));
    const log = join(dir, "screen.log");
    session = await startApp(["--demo", "--port", String(port)], { logFile: log });
    await session.waitFor(/connected/, { timeoutMs: 15_000 });

    const omar = await apiAs(site, "omar@lighthouse.test");
    const reg = await omar("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
    const general = (reg.subscriptions as Array<{ name: string; stream_id: number }>).find((s) => s.name === "general")!;
    const posted = await omar("POST", "messages", { type: "stream", to: String(general.stream_id), topic: "wildlife", content: "A quokka sighting near the office!" });
    expect(posted.result).toBe("success");

    // Search: / opens the prompt; the results show the message, the word marked.
    await session.sendKeys("/");
    await session.waitFor("channel:name");
    await session.type("quokka");
    await session.waitFor("/ quokka");
    await session.sendKeys("Enter");
    const screen = await session.waitFor("sighting near the office");
    expect(screen).toContain("Search: quokka");
    expect(screen).toContain("#general › wildlife");
    // tmux copies the program's output to the log as it comes: give it a moment.
    const marked = /\u001b\[7mquokka\u001b\[27m sighting/;
    let bytes = "";
    for (let i = 0; i < 30 && !marked.test(bytes); i++) {
      bytes = await readFile(log, "utf8").catch(() => "");
      if (!marked.test(bytes)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(bytes).toMatch(marked);

    // The palette acts on the selected message's channel (#general): change its description.
    await session.sendKeys("C-k");
    await session.waitFor("type to filter");
    await session.type("channel description");
    await session.waitFor("▌ Change channel description");
    await session.sendKeys("Enter");
    await session.waitFor("Description of #general");
    // Clear the line: to its start, then kill to the end (two separate key presses, as a person types them).
    await session.sendKeys("C-a");
    await session.waitFor(/▌ Description +Everyone at/);
    await session.sendKeys("C-k");
    await session.waitForGone(/▌ Description +Everyone at/);
    const text = `Company-wide chat ${Date.now() % 100000}`;
    await session.type(text);
    await session.waitFor(text);
    await session.sendKeys("Enter");
    await session.waitFor("Description of #general changed");

    const owner = await apiAs(site, "maya@lighthouse.test");
    const res = await owner("GET", `streams/${general.stream_id}`);
    expect((res.stream as { description: string }).description).toBe(text);
  });
});
