/**
 * The built binary in tmux against the reference server: a message links an image whose header
 * promises 20,000×20,000 pixels (a file of a few dozen bytes) and an ordinary chart. The huge one
 * shows its name and size instead of a preview (the server would not thumbnail it either, and
 * the client refuses it from its header); the chart shows as half-blocks decoded from the
 * server's thumbnail — on the decoder thread the bundle starts — and the original file is never
 * fetched. The huge file is still there to open or save from the message's links (L).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, writeZuliprcs, type FileRequestRecord, type RunningServer } from "../../src/server/index.js";
import { writePng } from "../fixtures/images/png-writer.js";
import { apiAs, ensureBuilt, startApp } from "./app.js";
import { colouredHalfBlocks, pollStyled } from "./half-blocks.js";
import type { TmuxSession } from "./tmux.js";

let server: RunningServer;
let dir: string;
let session: TmuxSession | undefined;
const files: FileRequestRecord[] = [];

beforeAll(async () => {
  ensureBuilt();
  server = await startServer({ port: 0, onFileRequest: (r) => files.push(r) });
  dir = await mkdtemp(join(tmpdir(), "termchat-images-budget-"));
  await writeZuliprcs(dir, server);
}, 30_000);

afterAll(async () => {
  await session?.kill();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function upload(as: string, name: string, bytes: Uint8Array): Promise<string> {
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, { method: "POST", body: new URLSearchParams({ username: as, password: "termchat-demo" }) });
  const { api_key } = (await login.json()) as { api_key: string };
  const form = new FormData();
  form.append("file", new Blob([Buffer.from(bytes)], { type: "image/png" }), name);
  const res = await fetch(`${server.url}/api/v1/user_uploads`, { method: "POST", headers: { authorization: "Basic " + Buffer.from(`${as}:${api_key}`).toString("base64") }, body: form });
  return ((await res.json()) as { url: string }).url;
}

it("a huge image shows its name and size; an ordinary one its preview, made from the server's thumbnail", async () => {
  const huge = writePng({ width: 1, height: 1, colorType: 2, bitDepth: 8, sample: () => [0, 0, 0] });
  huge.writeUInt32BE(20_000, 16);
  huge.writeUInt32BE(20_000, 20);
  const chart = writePng({ width: 240, height: 120, colorType: 2, bitDepth: 8, sample: (x, y) => [x, y * 2, 160] });
  const omar = "omar@lighthouse.test";
  const hugeUrl = await upload(omar, "huge.png", huge);
  const chartUrl = await upload(omar, "chart.png", chart);
  const api = await apiAs(server.url, omar);
  const sent = await api("POST", "messages", { type: "stream", to: "general", topic: "budget", content: `budget check: [huge.png](${hugeUrl}) and [chart.png](${chartUrl})` });
  expect(sent["result"]).toBe("success");

  session = await startApp(["--config", join(dir, "maya.zuliprc")], { cols: 110, rows: 34, env: { COLORTERM: "truecolor" } });
  await session.waitFor(/connected/, { timeoutMs: 15_000 });
  await session.waitFor(/Inbox {2}\d+ unread/);
  await session.type("/budget check");
  await session.sendKeys("Enter");
  const screen = await session.waitFor(/huge\.png — 20000×20000 px, \d+ B: too large to preview/, { timeoutMs: 15_000 });
  expect(screen).toContain("▨ chart.png");

  // The chart: coloured half-blocks (the 240×120 gradient, as its 240×120 thumbnail).
  const art = await pollStyled(session, (s) => colouredHalfBlocks(s) >= 40);
  expect(colouredHalfBlocks(art)).toBeGreaterThanOrEqual(40);

  // What the server was asked: the chart's thumbnail (made and served), never the chart itself;
  // for the huge one, its thumbnail (refused: over the image-bomb limit), then the file (tiny).
  const path = (url: string, format?: string) => (format ? `/user_uploads/thumbnail/${url.slice("/user_uploads/".length)}/${format}` : url);
  const asked = files.map((f) => `${f.status} ${f.path}`);
  expect(asked).toContain(`200 ${path(chartUrl, "840x560.webp")}`);
  expect(asked.filter((a) => a.endsWith(` ${chartUrl}`))).toEqual([]);
  expect(asked).toContain(`404 ${path(hugeUrl, "840x560.webp")}`);
  expect(asked).toContain(`200 ${hugeUrl}`);

  // The huge file is still the message's to open or save.
  await session.sendKeys("L");
  const links = await session.waitFor(/huge\.png/, { timeoutMs: 5000 });
  expect(links).toContain("chart.png");
  await session.sendKeys("Escape");
});
