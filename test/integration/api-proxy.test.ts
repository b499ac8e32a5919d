/**
 * Proxies from the environment, as curl and npm read them: HTTPS_PROXY /
 * HTTP_PROXY (or lower case) send the client through the proxy, tunnelled with
 * CONNECT so the organization's credentials stay inside the tunnel; NO_PROXY
 * (hosts, domains, host:port, `*`) bypasses it. The proxy is a small CONNECT +
 * forward proxy on 127.0.0.1 written here.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { connect, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/http.js";
import { emptySuccessSchema } from "../../src/api/schemas/responses.js";
import { getOwnUser } from "../../src/api/routes/users.js";
import { ensureBuilt } from "../e2e/app.js";
import { runCli } from "../fixtures/run-cli.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

interface Seen {
  method: string;
  target: string;
  headers: IncomingHttpHeaders;
}

let proxy: Server;
let proxyUrl: string;
const seen: Seen[] = [];
const sockets = new Set<Socket>();
let ctx: ServerFixture;
let port: number;
let tlsServer: HttpsServer;
let tlsSite: string;
let dir: string;

function startProxy(): Promise<void> {
  proxy = createServer((req, res) => {
    // Forward proxying: the request line carries the absolute URL.
    seen.push({ method: req.method ?? "", target: req.url ?? "", headers: req.headers });
    const up = request(req.url ?? "", { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  proxy.on("connect", (req, client: Socket, head: Buffer) => {
    seen.push({ method: "CONNECT", target: req.url ?? "", headers: req.headers });
    const [host, p] = (req.url ?? "").split(":");
    const upstream = connect(Number(p), host ?? "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => (s === client ? upstream : client).destroy());
    }
  });
  return new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve())).then(() => {
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
}

beforeAll(async () => {
  await startProxy();
  ctx = await withServer();
  port = ctx.server.port;
  const tlsDir = fileURLToPath(new URL("../fixtures/tls/", import.meta.url));
  tlsServer = createHttpsServer({ cert: await readFile(join(tlsDir, "cert.pem")), key: await readFile(join(tlsDir, "key.pem")) }, (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ result: "success", msg: "" }));
  });
  await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
  tlsSite = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), "termchat-proxy-"));
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  proxy.closeAllConnections();
  tlsServer.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await new Promise((resolve) => tlsServer.close(resolve));
  await ctx.close();
  await rm(dir, { recursive: true, force: true });
});

function clientWith(env: Record<string, string>, site = ctx.server.url): ApiClient {
  return new ApiClient({ site, email: ctx.owner.email, apiKey: ctx.owner.apiKey }, { env });
}

const connects = () => seen.filter((s) => s.method === "CONNECT" && s.target === `127.0.0.1:${port}`).length;

describe("proxies from the environment", () => {
  it("HTTP_PROXY: the client reaches the server through the proxy, in a CONNECT tunnel", async () => {
    const before = connects();
    const c = clientWith({ HTTP_PROXY: proxyUrl });
    expect((await getOwnUser(c)).email).toBe(ctx.owner.email);
    await c.close();
    expect(connects()).toBe(before + 1);
    // The proxy saw the tunnel's target, never the organization's credentials.
    expect(seen.every((s) => s.headers.authorization === undefined)).toBe(true);
  });

  it("https_proxy (lower case) carries https too; the TLS inside is the server's", async () => {
    const c = new ApiClient({ site: tlsSite, email: "a@b", apiKey: "k" }, { env: { https_proxy: proxyUrl }, ca: await readFile(fileURLToPath(new URL("../fixtures/tls/cert.pem", import.meta.url)), "utf8") });
    const before = seen.length;
    await expect(c.request("GET", "users/me", { schema: emptySuccessSchema })).resolves.toMatchObject({ result: "success" });
    await c.close();
    expect(seen.slice(before).map((s) => s.target)).toEqual([tlsSite.replace("https://", "")]);
  });

  it("NO_PROXY naming the host, the host:port, a domain or * bypasses the proxy; another port does not", async () => {
    for (const noProxy of ["127.0.0.1", `127.0.0.1:${port}`, "example.test, 127.0.0.1", "*"]) {
      const before = seen.length;
      const c = clientWith({ HTTP_PROXY: proxyUrl, NO_PROXY: noProxy });
      expect((await getOwnUser(c)).email).toBe(ctx.owner.email);
      await c.close();
      expect(seen.length, `NO_PROXY=${noProxy}`).toBe(before);
    }
    const before = connects();
    const c = clientWith({ http_proxy: proxyUrl, no_proxy: `127.0.0.1:${port + 1}` });
    expect((await getOwnUser(c)).email).toBe(ctx.owner.email);
    await c.close();
    expect(connects()).toBe(before + 1);
  });

  it("the CLI (termchat api) goes through HTTP_PROXY, and around it with NO_PROXY", async () => {
    ensureBuilt();
    const rc = join(dir, "zuliprc");
    await writeFile(rc, `[api]\nemail=${ctx.owner.email}\nkey=${ctx.owner.apiKey}\nsite=${ctx.server.url}\n`, { mode: 0o600 });
    await chmod(rc, 0o600);
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/_proxy$/i.test(k)));
    const run = (env: Record<string, string>) => runCli(["api", "GET", "users/me", "--config", rc], { baseEnv: clean, env });
    const before = connects();
    const via = await run({ HTTP_PROXY: proxyUrl });
    expect(via.stderr).toBe("");
    expect(via.code).toBe(0);
    expect(via.stdout).toContain(ctx.owner.email);
    expect(connects()).toBe(before + 1);
    const around = await run({ HTTP_PROXY: proxyUrl, NO_PROXY: "localhost,127.0.0.1" });
    expect(around.code).toBe(0);
    expect(connects()).toBe(before + 1);
  }, 40_000);
});
