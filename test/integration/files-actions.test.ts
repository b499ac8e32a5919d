/**
 * Files through the sync actions against the reference server on 127.0.0.1:
 * an upload's link in a sent message and its file saved byte-identical with
 * the account's credentials, the organization's limit applied before
 * anything is sent, the temporary address that opens an upload, and the
 * account's attachments listed and deleted.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { sendMessage } from "../../src/api/routes/messages.js";
import { messageLinks } from "../../src/render/message-links.js";
import { addressToOpen, checkUpload, myAttachments, removeAttachment, saveLink, uploadLimitMib, uploadLocalFile } from "../../src/sync/actions/files.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture | undefined;
let session: AccountRuntime | undefined;
let dir: string;

async function open(opts: { maxFileUploadSizeMib?: number } = {}): Promise<AccountRuntime> {
  ctx = await withServer({ heartbeatMs: 500, ...opts });
  dir = await mkdtemp(join(tmpdir(), "termchat-files-"));
  const client = ctx.client();
  session = await AccountRuntime.open({ client, account: { site: client.site.href, email: ctx.owner.email }, stateDir: join(dir, "state") });
  await session.machine.start();
  await eventually(() => session!.machine.state.kind === "live" && session!.machine.store, 15_000);
  return session;
}

afterEach(async () => {
  await session?.dispose();
  await ctx?.close();
  session = undefined;
  ctx = undefined;
  await rm(dir, { recursive: true, force: true });
});

function generalId(s: AccountRuntime): number {
  const c = [...s.machine.store!.channels.values()].find((x) => x.name === "general");
  if (!c) throw new Error("no channel general");
  return c.stream_id;
}

const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 31 + 7) % 256));

it("an uploaded file's link goes into a message, and the file saves byte-identical with the account's credentials, never over an existing one", async () => {
  const s = await open();
  const store = s.machine.store!;
  const file = join(dir, "report [q3].bin");
  await writeFile(file, bytes);
  const checked = await checkUpload(file, uploadLimitMib(store));
  if (!checked.ok) throw new Error(checked.error.message);
  const seen: number[] = [];
  const up = await uploadLocalFile(s, checked.value, { onProgress: (done) => seen.push(done) });
  if (!up.ok) throw new Error(up.error.message);
  expect(up.value.url).toMatch(/^\/user_uploads\/\d+\//);
  expect(up.value.markdown).toBe(`[${up.value.name.replace(/([[\]])/g, "\\$1")}](${up.value.url})`);
  expect(seen.at(-1)).toBe(bytes.length);

  const sent = await sendMessage(ctx!.client(), { type: "stream", to: generalId(s), topic: "files", content: `here: ${up.value.markdown}` });
  const m = await eventually(() => store.messages.byId.get(sent.id), 15_000);
  const links = messageLinks(m.content, store.realm.url);
  expect(links).toEqual([{ url: up.value.url, upload: true, label: up.value.name }]);

  const downloads = join(dir, "downloads");
  await mkdir(downloads);
  const first = await saveLink(s, links[0]!.url, downloads);
  if (!first.ok) throw new Error(first.error.message);
  expect(first.value.bytes).toBe(bytes.length);
  expect((await readFile(first.value.path)).equals(bytes)).toBe(true);
  const second = await saveLink(s, links[0]!.url, downloads);
  if (!second.ok) throw new Error(second.error.message);
  expect(second.value.path).not.toBe(first.value.path);
  expect(second.value.path).toMatch(/ \(1\)\.bin$/);
  expect((await readFile(first.value.path)).equals(bytes)).toBe(true);
});

it("a file over the organization's limit (from register) is refused before anything is sent, saying the limit", async () => {
  const s = await open({ maxFileUploadSizeMib: 1 });
  const store = s.machine.store!;
  expect(uploadLimitMib(store)).toBe(1);
  const file = join(dir, "big.bin");
  await writeFile(file, Buffer.alloc(1024 * 1024 + 1));
  const r = await checkUpload(file, uploadLimitMib(store));
  expect(r).toEqual({ ok: false, error: { code: "FILE_TOO_LARGE", message: "big.bin is 1.0 MiB; the organization accepts files up to 1 MiB" } });
  const missing = await checkUpload(join(dir, "nope.txt"), 1);
  expect(missing.ok || missing.error.message).toBe(`No such file: ${join(dir, "nope.txt")}`);
  const list = await myAttachments(s);
  expect(list.ok && list.value.attachments).toEqual([]);
  // Had the client believed in a larger limit, the server's refusal says why in the one failure shape.
  const stale = await checkUpload(file, 25);
  if (!stale.ok) throw new Error(stale.error.message);
  const refused = await uploadLocalFile(s, stale.value);
  expect(refused).toEqual({ ok: false, error: { code: "BAD_REQUEST", message: "Uploaded file is larger than the allowed limit of 1 MiB (BAD_REQUEST)" } });
});

it("an upload opens through a temporary address that carries no credentials and reads the file without them", async () => {
  const s = await open();
  const file = join(dir, "notes.txt");
  await writeFile(file, "meeting notes\n");
  const checked = await checkUpload(file, 25);
  if (!checked.ok) throw new Error(checked.error.message);
  const up = await uploadLocalFile(s, checked.value);
  if (!up.ok) throw new Error(up.error.message);
  const addr = await addressToOpen(s, up.value.url);
  if (!addr.ok) throw new Error(addr.error.message);
  const key = ctx!.owner.apiKey;
  expect(addr.value).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/user_uploads\/temporary\//);
  expect(addr.value).not.toContain(key);
  expect(addr.value).not.toContain(encodeURIComponent(key));
  expect(addr.value).not.toContain("api_key");
  const res = await fetch(addr.value, { signal: AbortSignal.timeout(10_000) });
  expect(await res.text()).toBe("meeting notes\n");
  const web = await addressToOpen(s, "https://example.com/a?b=1");
  expect(web).toEqual({ ok: true, value: "https://example.com/a?b=1" });
});

it("lists the account's attachments with the messages using them, and deletes one", async () => {
  const s = await open();
  const file = join(dir, "plan.txt");
  await writeFile(file, "the plan");
  const checked = await checkUpload(file, 25);
  if (!checked.ok) throw new Error(checked.error.message);
  const up = await uploadLocalFile(s, checked.value);
  if (!up.ok) throw new Error(up.error.message);
  const sent = await sendMessage(ctx!.client(), { type: "stream", to: generalId(s), topic: "files", content: up.value.markdown });
  const before = await myAttachments(s);
  if (!before.ok) throw new Error(before.error.message);
  const mine = before.value.attachments.find((a) => a.name === "plan.txt");
  expect(mine).toMatchObject({ size: 8, messages: [{ id: sent.id }] });
  expect(await removeAttachment(s, mine!.id)).toEqual({ ok: true, value: undefined });
  const after = await myAttachments(s);
  expect(after.ok && after.value.attachments.map((a) => a.name)).toEqual(before.value.attachments.filter((a) => a.id !== mine!.id).map((a) => a.name));
  const listed = await readdir(dir);
  const gone = await saveLink(s, up.value.url, dir);
  expect(gone.ok).toBe(false);
  if (!gone.ok) expect(gone.error.message).toMatch(/File not found/);
  expect(await readdir(dir)).toEqual(listed);
  expect(await removeAttachment(s, mine!.id)).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Invalid attachment/) } });
});
