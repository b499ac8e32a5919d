/**
 * The simulated link: what crosses it arrives byte for byte and in order, never sooner than its
 * round-trip time, connection set-up and line rate allow (lower bounds only: they hold on a busy
 * machine), the line is shared by the link's connections, and closing it drops what is open.
 */
import { randomBytes } from "node:crypto";
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/http.js";
import { getUsers } from "../../src/api/routes/users.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { LinkSim, startLink } from "../fixtures/link-sim.js";

let echo: Server | undefined;
let sim: LinkSim | undefined;
let server: RunningServer | undefined;
const clients: ApiClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await sim?.close();
  await server?.close();
  await new Promise<void>((r) => (echo ? echo.close(() => r()) : r()));
  [sim, server, echo] = [undefined, undefined, undefined];
});

/** A TCP server that sends back whatever it is sent, and ends when its peer does. */
async function startEcho(): Promise<number> {
  echo = createServer({ allowHalfOpen: true }, (s) => s.pipe(s));
  await new Promise<void>((r) => echo!.listen(0, "127.0.0.1", () => r()));
  return (echo.address() as AddressInfo).port;
}

/** Sends `data` through the link in pieces of random sizes, ends, and collects the echo until the link ends it. */
function exchange(port: number, data: Buffer): Promise<{ received: Buffer; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const s: Socket = connect({ host: "127.0.0.1", port, allowHalfOpen: true });
    const parts: Buffer[] = [];
    s.on("data", (c: Buffer) => parts.push(c));
    s.on("end", () => {
      resolve({ received: Buffer.concat(parts), ms: performance.now() - started });
      s.end();
    });
    s.on("error", reject);
    let i = 0;
    for (let n = 0; i < data.length && n < 10_000; n++) {
      const size = 1 + Math.floor(Math.random() * 40_000);
      s.write(data.subarray(i, i + size));
      i += size;
    }
    s.end();
  });
}

describe("a simulated link", () => {
  it("delivers a body byte for byte, in order, no sooner than set-up, one round trip and the line rate allow", async () => {
    const rttMs = 100;
    const bytesPerSec = 1024 * 1024;
    // A small in-flight bound: the sender is paused and resumed many times on the way.
    sim = await startLink(await startEcho(), { rttMs, bytesPerSec, maxQueuedBytes: 64 * 1024 });
    const body = randomBytes(300 * 1024);
    const { received, ms } = await exchange(sim.port, body);
    expect(received.equals(body)).toBe(true);
    // One round trip to connect, the body up at the line rate, its last byte back after one more.
    expect(ms).toBeGreaterThanOrEqual(rttMs + (body.length / bytesPerSec) * 1000 + rttMs - 1);
    expect(sim.bytes).toEqual({ up: body.length, down: body.length });
    expect(sim.connections).toBe(1);
  });

  it("shares its line among its connections, like an access line", async () => {
    const rttMs = 20;
    const bytesPerSec = 2 * 1024 * 1024;
    sim = await startLink(await startEcho(), { rttMs, bytesPerSec });
    const bodies = [randomBytes(400 * 1024), randomBytes(400 * 1024)];
    const started = performance.now();
    const results = await Promise.all(bodies.map((b) => exchange(sim!.port, b)));
    const ms = performance.now() - started;
    results.forEach((r, i) => expect(r.received.equals(bodies[i]!)).toBe(true));
    // Both bodies went up the one line: twice the time one alone would take on it.
    expect(ms).toBeGreaterThanOrEqual(rttMs + ((bodies[0]!.length + bodies[1]!.length) / bytesPerSec) * 1000 + rttMs - 1);
    expect(sim.connections).toBe(2);
  });

  it("adds at least a round trip to every request to the reference server, and the set-up to a new connection", async () => {
    const rttMs = 100;
    server = await startServer({ port: 0 });
    sim = await startLink(server.port, { rttMs, bytesPerSec: Infinity, handshakeRtts: 2 });
    const direct = new ApiClient({ site: server.url, email: server.accounts[0]!.email, apiKey: server.accounts[0]!.apiKey });
    const linked = new ApiClient({ site: sim.url, email: server.accounts[0]!.email, apiKey: server.accounts[0]!.apiKey });
    clients.push(direct, linked);
    const expected = await getUsers(direct);
    let t = performance.now();
    const first = await getUsers(linked);
    const firstMs = performance.now() - t;
    t = performance.now();
    const second = await getUsers(linked);
    const secondMs = performance.now() - t;
    expect(first).toEqual(expected);
    expect(second).toEqual(expected);
    // A new connection: two round trips of set-up, then the request's own.
    expect(firstMs).toBeGreaterThanOrEqual(2 * rttMs + rttMs - 1);
    expect(secondMs).toBeGreaterThanOrEqual(rttMs - 1);
    expect(sim.bytes.down).toBeGreaterThan(0);
  });

  it("drops its open connections when closed", async () => {
    sim = await startLink(await startEcho(), { rttMs: 10, bytesPerSec: Infinity });
    const s = connect({ host: "127.0.0.1", port: sim.port });
    const ended = new Promise<string>((resolve) => {
      s.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
      s.on("close", () => resolve("closed"));
    });
    await new Promise<void>((r) => s.once("connect", () => r()));
    s.write("still here?");
    await sim.close();
    expect(["closed", "ECONNRESET"]).toContain(await ended);
    sim = undefined;
  });
});
