/**
 * The first contact with a server, as a person meets it: the built binary
 * (`node bin/termchat.cjs`) run against servers that fail in the ways a first
 * start does — no such host, nothing listening, bad certificates, a refused
 * key, a deactivated account or organization, a web page where the API
 * should be, a server too old, a rate limit. Each ends in one line on stderr,
 * no stack trace, exit status 1 (a rate limit is waited out, and said). The
 * app's start in a terminal: test/e2e/first-contact.test.ts.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_FEATURE_LEVEL } from "../../src/api/first-contact.js";
import { ensureBuilt, freePort } from "../e2e/app.js";
import { runCli, type CliRun } from "../fixtures/run-cli.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";
import { deriveApiKey } from "../../src/server/seed/prng.js";

/** The demo seed's deactivated member (its key, as the seed derives every key). */
const TOM = { email: "tom@lighthouse.test", apiKey: deriveApiKey("termchat-reference-server/v1", "tom@lighthouse.test") };

type Run = CliRun;

/** Runs the binary (stdin closed, not a terminal) with a bounded time. */
function termchat(args: string[], input = "", timeoutMs = 20_000): Promise<Run> {
  return runCli(args, { input, timeoutMs, env: { HOME: home } });
}

/** Exactly one line on stderr, matching `line`; no stack frames; exit status `code`. */
function expectOneLine(r: Run, line: string | RegExp, code = 1): void {
  expect(r.stderr).not.toMatch(/^\s+at /m);
  const lines = r.stderr.split("\n").filter((l) => l.length > 0);
  expect(lines).toHaveLength(1);
  if (typeof line === "string") expect(lines[0]).toBe(`termchat: ${line}`);
  else expect(lines[0]).toMatch(line);
  expect(r.code).toBe(code);
}

const tlsDir = fileURLToPath(new URL("../fixtures/tls/", import.meta.url));
const pem = (name: string) => readFileSync(join(tlsDir, name), "utf8");

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const servers: Server[] = [];

/** A plain node:http (or https) server on 127.0.0.1 answering with `handler`; returns its base URL. */
async function rawServer(handler: Handler, tls?: { cert: string; key: string }): Promise<string> {
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => handler(req, res, body));
  };
  const server = tls ? createHttpsServer(tls, onRequest) : createHttpServer(onRequest);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `${tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function json(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

const creds = ["--email", "me@example.test", "--api-key", "not-a-real-key"];

let ctx: ServerFixture;
let home: string;

beforeAll(async () => {
  ensureBuilt();
  ctx = await withServer();
  home = await mkdtemp(join(tmpdir(), "termchat-contact-"));
}, 60_000);

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  await ctx?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

describe("no answer at all", () => {
  it("an unknown host: cannot find host", async () => {
    const r = await termchat(["messages", "--site", "chat.example.invalid", ...creds]);
    expectOneLine(r, "cannot find host chat.example.invalid (is the server URL right?)");
  });

  it("a closed port: nothing answers at host:port", async () => {
    const port = await freePort();
    const r = await termchat(["send", "--site", `http://127.0.0.1:${port}`, ...creds, "--channel", "c", "--topic", "t", "--message", "hi"]);
    expectOneLine(r, `nothing answers at 127.0.0.1:${port} (is the server running, is the URL right?)`);
  });
});

describe("certificate problems say which, and the fix", () => {
  const cases: Array<[string, { cert: string; key: string }, string[], RegExp]> = [
    ["self-signed", { cert: pem("cert.pem"), key: pem("key.pem") }, [], /is self-signed; if you trust it, pass its CA certificate with --ca-file FILE \(or cert_bundle=FILE in the zuliprc\)$/],
    ["unknown authority", { cert: pem("leaf.pem"), key: pem("leaf-key.pem") }, [], /is signed by an unknown authority; .*--ca-file FILE/],
    ["self-signed authority in the chain", { cert: pem("leaf.pem") + pem("ca.pem"), key: pem("leaf-key.pem") }, [], /comes from a self-signed authority that is not trusted; .*--ca-file FILE/],
    ["expired", { cert: pem("expired.pem"), key: pem("leaf-key.pem") }, ["--ca-file", join(tlsDir, "ca.pem")], /has expired \(check the clock here; otherwise the server's administrator must renew it\)$/],
    ["for another name", { cert: pem("other-name.pem"), key: pem("leaf-key.pem") }, ["--ca-file", join(tlsDir, "ca.pem")], /is for another name — is the URL right\?$/],
  ];
  for (const [name, tls, extra, line] of cases) {
    it(name, async () => {
      const site = await rawServer((_req, res) => json(res, 200, { result: "success", msg: "" }), tls);
      const r = await termchat(["api", "GET", "users/me", "--site", site, ...creds, ...extra]);
      expectOneLine(r, new RegExp(`^termchat: the certificate of 127\\.0\\.0\\.1 ${line.source}`));
    });
  }

  it("the same server is accepted once its authority is given with --ca-file", async () => {
    const site = await rawServer((_req, res) => json(res, 200, { result: "success", msg: "", ok: 1 }), { cert: pem("leaf.pem"), key: pem("leaf-key.pem") });
    const r = await termchat(["api", "GET", "users/me", "--site", site, ...creds, "--ca-file", join(tlsDir, "ca.pem")]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });
});

describe("the server refuses the account", () => {
  it("a wrong API key (the reference server)", async () => {
    const r = await termchat(["messages", "--site", ctx.server.url, "--email", ctx.owner.email, "--api-key", "wrong-key-0123456789"]);
    expectOneLine(r, `127.0.0.1 refused the API key for ${ctx.owner.email} (INVALID_API_KEY): check the key, or log in again with "termchat login"`);
    expect(r.stderr + r.stdout).not.toContain("wrong-key-0123456789");
  });

  it("a deactivated account logging in (the reference server's demo seed)", async () => {
    const r = await termchat(["login", "--site", ctx.server.url, "--email", "tom@lighthouse.test", "--config", join(home, "tom-rc")], "termchat-demo\n");
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr.trim().split("\n").at(-1)).toBe("termchat: the account tom@lighthouse.test is deactivated on 127.0.0.1 (ask an administrator)");
    expect(r.code).toBe(1);
    await expect(readFile(join(home, "tom-rc"), "utf8")).rejects.toThrow();
  });

  it("a deactivated account's key (the reference server's demo seed)", async () => {
    const r = await termchat(["messages", "--site", ctx.server.url, "--email", TOM.email, "--api-key", TOM.apiKey]);
    expectOneLine(r, "the account tom@lighthouse.test is deactivated on 127.0.0.1 (ask an administrator)");
  });

  it("a deactivated organization", async () => {
    const site = await rawServer((_req, res) => json(res, 401, { result: "error", msg: "This organization is deactivated", code: "REALM_DEACTIVATED" }));
    const r = await termchat(["status", "--site", site, ...creds, "--away"]);
    expectOneLine(r, "the organization at 127.0.0.1 is deactivated");
  });
});

describe("not the chat API", () => {
  const page = "<!DOCTYPE html><html><body>Welcome to the hotel Wi-Fi</body></html>";
  it("a web page with status 200 (a captive portal)", async () => {
    const site = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(page);
    });
    const r = await termchat(["messages", "--site", site, ...creds]);
    expectOneLine(r, `${new URL(site).host} answered with a web page, not the chat API — is the URL right? (a captive portal or a login page?)`);
  });

  it("a web page with status 404 and no content type (a wrong URL)", async () => {
    const site = await rawServer((_req, res) => {
      res.writeHead(404);
      res.end(page);
    });
    const r = await termchat(["send", "--site", site, ...creds, "--to", "a@b.test", "--message", "hi"]);
    expectOneLine(r, /answered with a web page, not the chat API/);
  });
});

describe("a server too old", () => {
  it("a command's unexpected refusal from a server older than supported names both levels", async () => {
    const site = await rawServer((req, res) => {
      if (req.url?.startsWith("/api/v1/server_settings")) return json(res, 200, { result: "success", msg: "", zulip_feature_level: 60 });
      json(res, 400, { result: "error", msg: "Invalid narrow operator: channel", code: "BAD_REQUEST" });
    });
    const r = await termchat(["messages", "--site", site, ...creds, "--channel", "general"]);
    expectOneLine(r, `${new URL(site).host} runs a server too old for termchat: it has feature level 60, termchat needs ${MIN_FEATURE_LEVEL} or newer`);
  });

  it("the same refusal from a current server keeps the server's words", async () => {
    const site = await rawServer((req, res) => {
      if (req.url?.startsWith("/api/v1/server_settings")) return json(res, 200, { result: "success", msg: "", zulip_feature_level: 400 });
      json(res, 400, { result: "error", msg: "Invalid channel name 'nowhere'", code: "BAD_REQUEST" });
    });
    const r = await termchat(["messages", "--site", site, ...creds, "--channel", "nowhere"]);
    expectOneLine(r, "Invalid channel name 'nowhere' (BAD_REQUEST)");
  });
});

describe("login", () => {
  it("an unknown host is said before any password is asked of it", async () => {
    const r = await termchat(["login", "--site", "chat.example.invalid", "--email", "a@b.test", "--config", join(home, "nowhere-rc")], "pw\n");
    expectOneLine(r, "cannot find host chat.example.invalid (is the server URL right?)");
  });

  it("a web page at the site", async () => {
    let posted = 0;
    const site = await rawServer((req, res) => {
      if (req.method === "POST") posted++;
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Log in to the portal</body></html>");
    });
    const r = await termchat(["login", "--site", site, "--email", "a@b.test", "--config", join(home, "portal-rc")], "secret-pw\n");
    expectOneLine(r, /answered with a web page, not the chat API/);
    expect(posted).toBe(0);
  });

  it("a server older than the client supports is named with both levels, before the password is sent", async () => {
    let keyAsked = 0;
    const site = await rawServer((req, res) => {
      if (req.url?.startsWith("/api/v1/fetch_api_key")) keyAsked++;
      json(res, 200, { result: "success", msg: "", zulip_feature_level: 100, zulip_version: "6.0", authentication_methods: {}, realm_url: "x" });
    });
    const r = await termchat(["login", "--site", site, "--email", "a@b.test", "--config", join(home, "old-rc")], "pw\n");
    expect(r.stderr.trim().split("\n").at(-1)).toBe(
      `termchat: ${new URL(site).host} runs a server too old for termchat: it has feature level 100, termchat needs ${MIN_FEATURE_LEVEL} or newer`,
    );
    expect(r.code).toBe(1);
    expect(keyAsked).toBe(0);
  });

  it("a 429 on fetch_api_key is waited out and said on stderr", async () => {
    let asked = 0;
    const site = await rawServer((req, res) => {
      if (!req.url?.startsWith("/api/v1/fetch_api_key")) return json(res, 200, { result: "success", msg: "", zulip_feature_level: 400 });
      if (++asked === 1) return json(res, 429, { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT" }, { "retry-after": "1" });
      json(res, 200, { result: "success", msg: "", api_key: "k".repeat(32), email: "a@b.test" });
    });
    const r = await termchat(["login", "--site", site, "--email", "a@b.test", "--config", join(home, "limited-rc")], "pw\n");
    expect(r.stderr).toContain("termchat: rate limited by the server, retrying in 1 s\n");
    expect(r.code).toBe(0);
    expect(asked).toBe(2);
  });
});

// Outside a terminal the app waits for its start before anything else: these need no tmux.
describe("the app's start", () => {
  it("an unknown host ends the start with the line and status 1", async () => {
    const r = await termchat(["--site", "https://chat.example.invalid", ...creds]);
    expectOneLine(r, "cannot find host chat.example.invalid (is the server URL right?)");
  });

  it("a wrong key ends the start with the line and status 1", async () => {
    const r = await termchat(["--site", ctx.server.url, "--email", ctx.owner.email, "--api-key", "wrong-key-0123456789"]);
    expectOneLine(r, `127.0.0.1 refused the API key for ${ctx.owner.email} (INVALID_API_KEY): check the key, or log in again with "termchat login"`);
  });

  it("a self-signed certificate ends the start with which problem and the fix", async () => {
    const site = await rawServer((_req, res) => json(res, 200, { result: "success", msg: "" }), { cert: pem("cert.pem"), key: pem("key.pem") });
    const r = await termchat(["--site", site, ...creds]);
    expectOneLine(r, "the certificate of 127.0.0.1 is self-signed; if you trust it, pass its CA certificate with --ca-file FILE (or cert_bundle=FILE in the zuliprc)");
  });

  it("a deactivated account ends the start with the line and status 1", async () => {
    const r = await termchat(["--site", ctx.server.url, "--email", TOM.email, "--api-key", TOM.apiKey]);
    expectOneLine(r, "the account tom@lighthouse.test is deactivated on 127.0.0.1 (ask an administrator)");
  });

  it("outside a terminal, a start that would work says the app needs one (exit 2)", async () => {
    const r = await termchat(["--site", ctx.server.url, "--email", ctx.owner.email, "--api-key", ctx.owner.apiKey]);
    expectOneLine(r, "the app needs a terminal (stdin is not one); scripts can use termchat send, messages, status and api", 2);
  });

  it("a web page in place of the API ends the start", async () => {
    const site = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Sign in to the network</body></html>");
    });
    const r = await termchat(["--site", `${site}/api/v1/`, ...creds]);
    expectOneLine(r, /answered with a web page, not the chat API — is the URL right\? \(a captive portal or a login page\?\)$/);
  });
});

describe("the site as people write it", () => {
  for (const suffix of ["", "/", "/api", "/api/v1", "/api/v1/"]) {
    it(`"${suffix || "(bare)"}" at the end reaches the same server`, async () => {
      const r = await termchat(["api", "GET", "users/me", "--site", `${ctx.server.url}${suffix}`, "--email", ctx.owner.email, "--api-key", ctx.owner.apiKey]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ result: "success", email: ctx.owner.email });
    });
  }
});
