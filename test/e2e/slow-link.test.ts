/**
 * The built binary over a slow network link (40 ms round trip, 8 Mbit/s, a
 * connection costing two round trips to set up): it comes up, draws the
 * organization, and live messages still arrive without a key press.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type ResponseRecord, type RunningServer } from "../../src/server/index.js";
import { mbit, startLink, type LinkSim } from "../fixtures/link-sim.js";
import { apiAs, ensureBuilt, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let server: RunningServer;
let link: LinkSim;
let dir: string;
let session: TmuxSession | undefined;
const answered: ResponseRecord[] = [];

beforeAll(async () => {
  ensureBuilt();
  server = await startServer({ port: 0, onResponse: (r) => answered.push(r) });
  link = await startLink(server.port, { rttMs: 40, bytesPerSec: mbit(8), handshakeRtts: 2 });
  dir = await mkdtemp(join(tmpdir(), "termchat-link-"));
}, 30_000);

afterAll(async () => {
  await session?.kill();
  await link.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

it("starts over a slow link and keeps receiving", async () => {
  const owner = server.accounts[0]!;
  const rc = join(dir, "zuliprc");
  await writeFile(rc, `[api]\nemail=${owner.email}\nkey=${owner.apiKey}\nsite=${link.url}\n`, { mode: 0o600 });
  session = await startApp(["--config", rc]);
  await session.waitFor(/connected/, { timeoutMs: 30_000 });
  await session.waitFor(/Inbox {2}\d+ unread/, { timeoutMs: 15_000 });
  expect(answered.filter((r) => r.method === "POST" && r.path === "/register")).toHaveLength(1);
  expect(link.bytes.down).toBeGreaterThan(0);

  // Another user posts to a new topic: the long poll over the link brings it to the Inbox.
  const omar = await apiAs(server.url, "omar@lighthouse.test");
  const general = (await omar("GET", "get_stream_id", { stream: "general" })).stream_id as number;
  const topic = `over the link ${Date.now() % 100000}`;
  const posted = await omar("POST", "messages", { type: "stream", to: String(general), topic, content: "slow but here" });
  expect(posted.result).toBe("success");
  await session.waitFor(topic, { timeoutMs: 15_000 });
});
