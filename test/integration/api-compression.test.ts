/**
 * Compression on the wire: the client asks for gzip, deflate and br and decodes
 * answers as they stream; the reference server gzips JSON answers of 1 KB and
 * more when asked (Vary: Accept-Encoding), and sends identity otherwise. A body
 * that is not the gzip it claims to be is a clear NetworkError, not a crash.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { NetworkError } from "../../src/api/errors.js";
import { ApiClient } from "../../src/api/http.js";
import { emptySuccessSchema } from "../../src/api/schemas/responses.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { faultyWorld, type FaultyWorld } from "../fixtures/fault-proxy.js";

let world: FaultyWorld | undefined;
let stub: Server | undefined;
const machines: UpdateMachine[] = [];

afterEach(async () => {
  await Promise.all(machines.splice(0).map((m) => m.stop()));
  await world?.close();
  world = undefined;
  if (stub) {
    stub.closeAllConnections();
    await new Promise((resolve) => stub!.close(resolve));
    stub = undefined;
  }
});

/** One raw request to the reference server, returning the status, headers and undecoded body bytes. */
function raw(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/${path}`, { method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error("timed out")));
    req.end();
  });
}

describe("compression", () => {
  it("a gzipped register arrives and is applied to the client's store", async () => {
    world = await faultyWorld();
    const machine = new UpdateMachine(world.client(), { backoff: { baseMs: 10, maxMs: 50 } });
    machines.push(machine);
    const store = await machine.start();
    const registers = world.proxy.log.filter((e) => e.path === "register");
    expect(registers.length).toBe(1);
    expect(registers[0]!.encoding).toBe("gzip");
    expect([...store.channels.values()].some((c) => c.name === "general")).toBe(true);
    expect(store.users.size).toBeGreaterThanOrEqual(8);
  });

  it("the server sends identity to a request that does not ask, and gzip (with Vary) to one that does", async () => {
    world = await faultyWorld();
    const url = `http://127.0.0.1:${world.server!.port}`;
    const auth = "Basic " + Buffer.from(`${world.owner.email}:${world.owner.apiKey}`).toString("base64");
    const plain = await raw(url, "register", { authorization: auth });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect(JSON.parse(plain.body.toString("utf8"))).toMatchObject({ result: "success" });

    const refused = await raw(url, "register", { authorization: auth, "accept-encoding": "gzip;q=0, br" });
    expect(refused.headers["content-encoding"]).toBeUndefined();

    const packed = await raw(url, "register", { authorization: auth, "accept-encoding": "gzip, deflate, br" });
    expect(packed.headers["content-encoding"]).toBe("gzip");
    expect(Number(packed.headers["content-length"])).toBe(packed.body.length);
    expect(packed.body.length).toBeLessThan(plain.body.length / 2);
  });

  it("a small answer goes uncompressed even when gzip is asked for", async () => {
    world = await faultyWorld();
    const url = `http://127.0.0.1:${world.server!.port}`;
    const res = await raw(url, "fetch_api_key", { "accept-encoding": "gzip" });
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers["content-encoding"]).toBeUndefined();
  });

  async function stubServer(answer: (headers: IncomingHttpHeaders) => { headers: Record<string, string>; body: Buffer }): Promise<string> {
    stub = createServer((req, res) => {
      const { headers, body } = answer(req.headers);
      res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length), ...headers });
      res.end(body);
    });
    await new Promise<void>((resolve) => stub!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  }

  it("asks for gzip, deflate and br, and decodes each", async () => {
    const seen: (string | undefined)[] = [];
    const body = Buffer.from(JSON.stringify({ result: "success", msg: "", padding: "x".repeat(5000) }));
    const zlib = await import("node:zlib");
    const encoders: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };
    let next = "gzip";
    const site = await stubServer((headers) => {
      seen.push(headers["accept-encoding"] as string | undefined);
      return { headers: { "content-encoding": next }, body: encoders[next]!(body) };
    });
    const c = new ApiClient({ site, email: "a@b", apiKey: "k" });
    for (const name of ["gzip", "deflate", "br"]) {
      next = name;
      await expect(c.request("GET", "users", { schema: emptySuccessSchema })).resolves.toMatchObject({ result: "success" });
    }
    expect(seen).toEqual(["gzip, deflate, br", "gzip, deflate, br", "gzip, deflate, br"]);
    await c.close();
  });

  it("a corrupted gzip body is a NetworkError naming the problem", async () => {
    const good = gzipSync(JSON.stringify({ result: "success", msg: "", padding: "y".repeat(4000) }));
    const broken = Buffer.from(good);
    for (let i = 20; i < broken.length - 8; i += 7) broken[i] = broken[i]! ^ 0xff;
    const site = await stubServer(() => ({ headers: { "content-encoding": "gzip" }, body: broken }));
    const c = new ApiClient({ site, email: "a@b", apiKey: "k" }, { retry: { attempts: 1, baseMs: 1, maxMs: 1, maxRetryAfterMs: 0 } });
    const err = await c.request("GET", "users", { schema: emptySuccessSchema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/^GET users: the compressed answer could not be decoded/);
    await c.close();
  });

  it("an encoding that was not asked for is refused clearly", async () => {
    const site = await stubServer(() => ({ headers: { "content-encoding": "zstd" }, body: Buffer.from("whatever") }));
    const c = new ApiClient({ site, email: "a@b", apiKey: "k" }, { retry: { attempts: 1, baseMs: 1, maxMs: 1, maxRetryAfterMs: 0 } });
    const err = await c.request("GET", "users", { schema: emptySuccessSchema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain('"zstd"');
    await c.close();
  });
});
