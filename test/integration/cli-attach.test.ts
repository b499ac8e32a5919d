/**
 * `termchat send --attach` with the built binary against the reference
 * server: the files are uploaded, their links follow the text, and each
 * downloads byte-identical with the account's credentials; a missing file
 * stops everything before anything is sent, in one line.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getMessage } from "../../src/api/routes/messages.js";
import { downloadTo, listAttachments } from "../../src/api/routes/uploads.js";
import { writeZuliprc } from "../../src/config/zuliprc.js";
import { messageLinks } from "../../src/render/message-links.js";
import { ensureBuilt } from "../e2e/app.js";
import { runCli } from "../fixtures/run-cli.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
let dir: string;
let rc: string;

beforeAll(async () => {
  ensureBuilt();
  ctx = await withServer();
  dir = await mkdtemp(join(tmpdir(), "termchat-cli-attach-"));
  rc = join(dir, "zuliprc");
  await writeZuliprc(rc, { email: ctx.owner.email, key: ctx.owner.apiKey, site: ctx.server.url });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function fetchBytes(link: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({ write: (c: Buffer, _e, done) => (chunks.push(c), done()) });
  await downloadTo(ctx.client(), link, sink);
  return Buffer.concat(chunks);
}

it("uploads the files, sends their links after the text, and each downloads byte-identical", async () => {
  const csv = Buffer.from("week,sales\n1,10\n2,12\n");
  const bin = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 13) % 256));
  await writeFile(join(dir, "sales.csv"), csv);
  await writeFile(join(dir, "blob.bin"), bin);
  const r = await runCli(["send", "--config", rc, "--channel", "general", "--topic", "cli files", "--message", "this week's numbers", "--attach", join(dir, "sales.csv"), join(dir, "blob.bin")], { timeoutMs: 20_000 });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const id = Number(r.stdout.trim());
  const { message } = await getMessage(ctx.client(), id, { apply_markdown: false });
  const lines = message.content.split("\n");
  expect(lines[0]).toBe("this week's numbers");
  expect(lines.slice(1)).toEqual([expect.stringMatching(/^\[sales\.csv\]\(\/user_uploads\/\d+\/.+\/sales\.csv\)$/), expect.stringMatching(/^\[blob\.bin\]\(\/user_uploads\/.+\)$/)]);
  const links = messageLinks(message.content);
  expect(await fetchBytes(links[0]!.url)).toEqual(csv);
  expect((await fetchBytes(links[1]!.url)).equals(bin)).toBe(true);
  expect(r.stdout + r.stderr).not.toContain(ctx.owner.apiKey);
});

it("stops before anything is sent when a file is missing, in one line", async () => {
  const before = (await listAttachments(ctx.client())).attachments.length;
  await writeFile(join(dir, "there.txt"), "x");
  const r = await runCli(["send", "--config", rc, "--to", ctx.owner.email, "-m", "hi", "--attach", join(dir, "there.txt"), "--attach", join(dir, "not-there.txt")]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(`termchat: --attach: No such file: ${join(dir, "not-there.txt")}\n`);
  expect(r.stdout).toBe("");
  expect((await listAttachments(ctx.client())).attachments.length).toBe(before);
});
