/**
 * The app's start in a terminal (tmux) against a server on 127.0.0.1 that
 * first rate-limits the register, then turns out too old: the status line
 * says it is waiting, and the start ends with one line and exit status 1.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { MIN_FEATURE_LEVEL } from "../../src/api/first-contact.js";
import { ensureBuilt, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let server: Server;
let site: string;
let registers = 0;
let session: TmuxSession | undefined;

function json(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  ensureBuilt();
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.startsWith("/api/v1/register") && ++registers === 1) {
        return json(res, 429, { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 3 });
      }
      json(res, 200, { result: "success", msg: "", queue_id: "q1", last_event_id: -1, zulip_feature_level: 120 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await session?.kill();
  session = undefined;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it("a rate-limited register is waited out with a note; a server too old then ends the start with status 1", async () => {
  session = await startApp(["--site", site, "--email", "me@example.test", "--api-key", "not-a-real-key"], { env: { NO_COLOR: "1" }, cols: 200 });
  await session.waitFor("rate limited by the server, retrying in 3 s", { timeoutMs: 15_000 });
  expect(await session.waitForExit({ timeoutMs: 20_000 })).toBe(1);
  const screen = await session.capture();
  expect(screen).toContain(
    `termchat: 127.0.0.1:${new URL(site).port} runs a server too old for termchat: it has feature level 120, termchat needs ${MIN_FEATURE_LEVEL} or newer`,
  );
  expect(screen).not.toMatch(/^\s+at /m);
  expect(registers).toBe(2);
});
