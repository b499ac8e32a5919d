/**
 * The built binary in tmux: in the demo, reply to a message, attach a file
 * from the compose box (Ctrl-T, Tab completes the path), send, and find the
 * upload's link in the sent message on the server, and its name on screen.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, expect, it } from "vitest";
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

it("Ctrl-T in the compose box uploads a file and its link is in the sent message", async () => {
  dir = await mkdtemp(join(tmpdir(), "termchat-e2e-files-"));
  const name = `floor-notes-${Date.now() % 100000}.txt`;
  await writeFile(join(dir, name), "room 4 has the projector\n");
  const port = await freePort();
  const site = `http://127.0.0.1:${port}`;
  session = await startApp(["--demo", "--port", String(port)]);
  await session.waitFor(/connected/, { timeoutMs: 15_000 });
  await session.waitFor(/Inbox {2}\d+ unread/);
  await session.sendKeys("a");
  await session.waitFor(/^ *≡ Inbox(?: +\d+)? +Combined feed/m);
  await session.waitFor(/\w+ \w+ {2}(Nov \d+ )?\d{1,2}:\d{2}/);
  await session.sendKeys("G"); // follow the newest message

  const omar = await apiAs(site, "omar@lighthouse.test");
  const reg = await omar("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
  const general = (reg.subscriptions as Array<{ name: string; stream_id: number }>).find((s) => s.name === "general")!;
  const ask = `who has the room notes ${Date.now() % 100000}`;
  await omar("POST", "messages", { type: "stream", to: String(general.stream_id), topic: "e2e files", content: ask });
  await session.waitFor(ask);
  await session.sendKeys("r");
  await session.waitFor("#general > e2e files");
  await session.type("notes: ");
  await session.sendKeys("C-t");
  await session.waitFor("Attach files (up to 25 MiB each)");
  await session.type(`${dir}/floor-n`);
  await session.sendKeys("Tab");
  await session.waitFor(`${name} `.slice(0, 20));
  await session.sendKeys("Enter");
  await session.waitFor(`Uploaded ${name}`, { timeoutMs: 10_000 });
  await session.sendKeys("Enter");
  await session.waitForGone("Enter send", { timeoutMs: 10_000 });

  let content = "";
  for (let i = 0; i < 50 && !content.includes(name); i++) {
    const r = await omar("GET", "messages", { anchor: "newest", num_before: "1", num_after: "0", narrow: JSON.stringify([{ operator: "topic", operand: "e2e files" }]), apply_markdown: "false" });
    content = (r.messages as Array<{ content: string }>)[0]?.content ?? "";
    if (!content.includes(name)) await new Promise((r) => setTimeout(r, 100));
  }
  expect(content.trimEnd()).toMatch(new RegExp(`^notes: \\[${name.replace(/\./g, "\\.")}\\]\\(/user_uploads/\\d+/[^)]+/${name.replace(/\./g, "\\.")}\\)$`));
  await session.waitFor(name);
});
