/**
 * The update machine over a slow link: the first events poll leaves as soon as the register's
 * answer is read, before the store is built, and on the register's connection instead of a new
 * one (which would cost the connection's set-up, two round trips with TLS, before it could leave).
 */
import { afterEach, expect, it } from "vitest";
import { ApiClient } from "../../src/api/http.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { getEvents } from "../../src/api/routes/events.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { startTap, type HttpTap } from "../fixtures/http-tap.js";
import { mbit, startLink, type LinkSim } from "../fixtures/link-sim.js";

let server: RunningServer | undefined;
let tap: HttpTap | undefined;
let link: LinkSim | undefined;
let machine: UpdateMachine | undefined;
let client: ApiClient | undefined;

afterEach(async () => {
  await machine?.stop();
  await client?.close();
  await link?.close();
  await tap?.close();
  await server?.close();
  [server, tap, link, machine, client] = [undefined, undefined, undefined, undefined, undefined];
});

it("sends the first events poll before building the store, on the register's connection", async () => {
  server = await startServer({ port: 0 });
  tap = await startTap({ upstreamPort: server.port });
  link = await startLink(tap.port, { rttMs: 40, bytesPerSec: mbit(8), handshakeRtts: 2 });
  const owner = server.accounts[0]!;
  client = new ApiClient({ site: link.url, email: owner.email, apiKey: owner.apiKey });
  let polls = 0;
  machine = new UpdateMachine(client, { api: { getEvents: (...a) => (polls++, getEvents(...a)) } });
  let pollsWhenStoreCame = -1;
  let sentWhenStoreCame = -1;
  machine.onStore(() => {
    pollsWhenStoreCame = polls;
    sentWhenStoreCame = link!.taken.up;
  });
  await machine.start();
  expect(pollsWhenStoreCame).toBe(1);
  const deadline = Date.now() + 10_000;
  while (!tap.log.some((r) => r.path.endsWith("/events")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(tap.log.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/v1/register", "GET /api/v1/events"]);
  expect(link.connections).toBe(1);
  // The poll had been written out in full before the store was built: nothing was sent after.
  expect(link.taken.up).toBe(sentWhenStoreCame);
});
