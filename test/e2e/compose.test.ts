/**
 * The built binary in tmux: select your own message, edit it with e, save
 * with Enter, and find the new text on the server (read by another user);
 * and a draft handed to $EDITOR with Ctrl-O comes back as the editor left it.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiAs, ensureBuilt, freePort, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
});

describe("editing a message in tmux", () => {
  it("e opens your message in the compose box; Enter saves the edit on the server", async () => {
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    session = await startApp(["--demo", "--port", String(port)]);
    await session.waitFor(/connected/, { timeoutMs: 15_000 });

    await session.waitFor(/Inbox {2}\d+ unread/); // the home view
    await session.sendKeys("a"); // the combined feed
    await session.waitFor(/^ *≡ Inbox(?: +\d+)? +Combined feed/m); // the Inbox row (with its count: opening the feed reads only what it shows), then the feed's title
    await session.waitFor(/\w+ \w+ {2}(Nov \d+ )?\d{1,2}:\d{2}/); // its messages are in
    await session.sendKeys("G"); // follow the newest message

    // The owner (the --demo login) posts through the API; the app shows it live in the feed.
    const maya = await apiAs(site, "maya@lighthouse.test");
    const reg = await maya("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
    const general = (reg.subscriptions as Array<{ name: string; stream_id: number }>).find((s) => s.name === "general")!;
    const original = `typo in thsi message ${Date.now() % 100000}`;
    const posted = await maya("POST", "messages", { type: "stream", to: String(general.stream_id), topic: "e2e edit", content: original });
    expect(posted.result).toBe("success");
    const id = posted.id as number;
    await session.waitFor(original);
    await session.sendKeys("G"); // select it (the newest)
    await pause(300);
    await session.sendKeys("e");
    await session.waitFor("Editing · #general > e2e edit");
    // Erase the line (Ctrl-A, Ctrl-K) and type the corrected text.
    await session.sendKeys("C-a");
    await pause(100);
    await session.sendKeys("C-k");
    await pause(100);
    const fixed = `no typo in this message ${Date.now() % 100000}`;
    await session.type(fixed);
    await session.waitFor(fixed);
    await session.sendKeys("Enter");
    await session.waitFor("Message edited.");
    await session.waitForGone("Enter save");

    const omar = await apiAs(site, "omar@lighthouse.test");
    let content = "";
    for (let i = 0; i < 50 && content !== fixed; i++) {
      const r = await omar("GET", `messages/${id}`, { apply_markdown: "false" });
      content = (r.message as { content: string }).content;
      if (content !== fixed) await new Promise((r) => setTimeout(r, 100));
    }
    expect(content).toBe(fixed);
    // The pane shows the edited text too.
    await session.waitFor(fixed);
  });

  it("Ctrl-O hands the draft to $EDITOR and takes back what the editor saved", async () => {
    const dir = mkdtempSync(join(tmpdir(), "termchat-e2e-editor-"));
    try {
      // An "editor" that rewrites the file in place, as a person would, and exits.
      const editor = join(dir, "editor.sh");
      writeFileSync(editor, `#!/bin/sh\nsed -i 's/first draft/second draft, from the editor/' "$1"\n`);
      chmodSync(editor, 0o755);
      const port = await freePort();
      session = await startApp(["--demo", "--port", String(port)], { env: { EDITOR: editor } });
      await session.waitFor(/connected/, { timeoutMs: 15_000 });
      await session.sendKeys("a");
      await session.waitFor(/\w+ \w+ {2}(Nov \d+ )?\d{1,2}:\d{2}/); // the feed's messages are in
      await session.sendKeys("r");
      await session.waitFor("Enter send");
      await session.type("my first draft");
      await session.waitFor("my first draft");
      await session.sendKeys("C-o");
      await session.waitFor("my second draft, from the editor");
      // Back in the compose box, which still takes keys.
      await session.type(" ok");
      await session.waitFor("my second draft, from the editor ok");
      expect(await session.capture()).toContain("Enter send");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
