/**
 * The update machine over a slow link: the first events poll leaves as soon as the register's
 * answer names its queue (the reference server names it first: while the rest still arrives),
 * before the store is built, and on a connection already open instead of a new one (which would
 * cost the connection's set-up, two round trips with TLS, before it could leave).
 * The user's own record goes beside the register (on a second connection, at the same time), and
 * the user list only after the poll.
 */
import { afterEach, expect, it } from "vitest";
import { ApiClient } from "../../src/api/http.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { getEvents } from "../../src/api/routes/events.js";
import { getServerSettings } from "../../src/api/routes/server-settings.js";
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

it("sends the first events poll before building the store, on a connection already open", async () => {
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
  const sent = tap.log.map((r) => `${r.method} ${r.path}`);
  expect(sent.slice(0, 2).sort()).toEqual(["GET /api/v1/users/me", "POST /api/v1/register"]);
  expect(sent.slice(2)).toEqual(["GET /api/v1/events", "GET /api/v1/users"]);
  expect(link.connections).toBe(2);
  // The poll had been written out before the store was built: one request's head at most went after it (the user list's).
  expect(link.taken.up - sentWhenStoreCame).toBeLessThan(1024);
});

it("sends the first events poll while the register's answer is still arriving", async () => {
  server = await startServer({ port: 0 });
  // Uncompressed, in 2 KiB pieces over 0.2 Mbit/s: the demo organization's register (some
  // 20 KB) arrives a piece every 80 ms or so, its queue in the first.
  tap = await startTap({ upstreamPort: server.port, identity: true });
  const downs: number[] = [];
  link = await startLink(tap.port, { rttMs: 40, bytesPerSec: mbit(0.2), handshakeRtts: 2, pieceBytes: 2048, onDeliver: (d, _n, at) => d === "down" && downs.push(at) });
  const owner = server.accounts[0]!;
  client = new ApiClient({ site: link.url, email: owner.email, apiKey: owner.apiKey });
  // Three connections open and idle, as a client has them after a while: the register takes one,
  // the user's own record another (its answer comes down the line behind the register's), and
  // the poll, which leaves only on an idle one while the answer arrives, the third.
  await Promise.all([1, 2, 3].map(() => getServerSettings(client!)));
  expect(client.idleConnection()).toBe(true);
  machine = new UpdateMachine(client);
  let lastPieceOfRegister = 0;
  machine.onStore(() => (lastPieceOfRegister = Math.max(...downs)));
  await machine.start();
  const register = tap.log.find((r) => r.path.endsWith("/register"))!;
  const poll = tap.log.find((r) => r.path.endsWith("/events"));
  expect(poll).toBeDefined();
  // The answer took most of a second to come down; the poll reached the server long before its last piece did.
  expect(lastPieceOfRegister - register.headMs!).toBeGreaterThan(500);
  expect(poll!.startMs).toBeLessThan(lastPieceOfRegister - 200);
  expect(machine.state.kind).toBe("live");
});
