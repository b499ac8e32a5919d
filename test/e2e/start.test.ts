/**
 * Start-up of the built binary against a server: the register goes out before the code that
 * reads its answer has loaded, and that early request is the one the client uses — the
 * server sees one register per start, not two, and the screen comes up from it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, writeZuliprcs, type ResponseRecord, type RunningServer } from "../../src/server/index.js";
import { ensureBuilt, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let server: RunningServer;
let dir: string;
let session: TmuxSession | undefined;
const answered: ResponseRecord[] = [];

beforeAll(async () => {
  ensureBuilt();
  server = await startServer({ port: 0, onResponse: (r) => answered.push(r) });
  dir = await mkdtemp(join(tmpdir(), "termchat-start-"));
  await writeZuliprcs(dir, server);
}, 30_000);

afterAll(async () => {
  await session?.kill();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

it("registers once, and shows the organization from that register", async () => {
  session = await startApp(["--config", join(dir, "maya.zuliprc")]);
  await session.waitFor(/connected/, { timeoutMs: 15_000 });
  await session.waitFor(/Inbox {2}\d+ unread/);
  await new Promise((r) => setTimeout(r, 500)); // a second register, were there one, has had its answer
  const registers = answered.filter((r) => r.method === "POST" && r.path === "/register");
  expect(registers).toHaveLength(1);
  expect(registers[0]!.status).toBe(200);
});
