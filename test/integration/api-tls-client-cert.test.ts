/**
 * The zuliprc's TLS keys, as the service's Python bindings read them:
 * cert_bundle (a CA bundle, trusted besides the built-in authorities and
 * NODE_EXTRA_CA_CERTS), client_cert + client_cert_key (mutual TLS), and
 * insecure=true (no verification, with a warning at every start). Servers on
 * 127.0.0.1 use the test CA in test/fixtures/tls (generate-ca.sh).
 */
import { chmod, copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NetworkError } from "../../src/api/errors.js";
import { emptySuccessSchema } from "../../src/api/schemas/responses.js";
import { clientForAccount, resolveAccount } from "../../src/cli/account.js";
import { INSECURE_WARNING } from "../../src/cli/tls-files.js";
import { ConfigError, parseZuliprc } from "../../src/config/zuliprc.js";
import { ensureBuilt } from "../e2e/app.js";
import { runCli } from "../fixtures/run-cli.js";

const tlsDir = fileURLToPath(new URL("../fixtures/tls/", import.meta.url));
const pem = (name: string) => readFile(join(tlsDir, name), "utf8");
const NO_RETRY = { attempts: 1, baseMs: 1, maxMs: 1, maxRetryAfterMs: 0 };

let mutual: Server;
let selfSigned: Server;
let mutualSite: string;
let selfSignedSite: string;
let dir: string;
const clientNames: string[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function answer(_req: IncomingMessage, res: ServerResponse) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ result: "success", msg: "", email: "a@b.test", user_id: 1, full_name: "A" }));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "termchat-tls-"));
  for (const f of ["mtls-ca.pem", "client-cert.pem", "client-key.pem", "cert.pem"]) await copyFile(join(tlsDir, f), join(dir, f));
  mutual = createServer(
    { cert: await pem("server-cert.pem"), key: await pem("server-key.pem"), ca: await pem("mtls-ca.pem"), requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      clientNames.push(String((req.socket as TLSSocket).getPeerCertificate().subject?.CN));
      answer(req, res);
    },
  );
  selfSigned = createServer({ cert: await pem("cert.pem"), key: await pem("key.pem") }, answer);
  mutualSite = await listen(mutual);
  selfSignedSite = await listen(selfSigned);
});

afterAll(async () => {
  for (const s of [mutual, selfSigned]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  await rm(dir, { recursive: true, force: true });
});

async function zuliprc(name: string, site: string, extra: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `[api]\nemail=a@b.test\nkey=k\nsite=${site}\n${extra}`, { mode: 0o600 });
  await chmod(path, 0o600);
  return path;
}

describe("zuliprc TLS keys", () => {
  it("cert_bundle, client_cert and client_cert_key (relative to the file) reach a server that requires a client certificate", async () => {
    const config = await zuliprc("mutual.zuliprc", mutualSite, "cert_bundle=mtls-ca.pem\nclient_cert=client-cert.pem\nclient_cert_key=./client-key.pem\n");
    const account = await resolveAccount({ config, allowInsecureHttp: false });
    expect(account.clientCert).toBe(join(dir, "client-cert.pem"));
    const c = await clientForAccount(account);
    await expect(c.request("GET", "users/me", { schema: emptySuccessSchema })).resolves.toMatchObject({ result: "success" });
    expect(clientNames).toContain("termchat test client");
    await c.close();
  });

  it("without the client certificate the same server is a NetworkError", async () => {
    const config = await zuliprc("no-client.zuliprc", mutualSite, "cert_bundle=mtls-ca.pem\n");
    const c = await clientForAccount(await resolveAccount({ config, allowInsecureHttp: false }));
    const before = clientNames.length;
    const err = await c.request("GET", "users/me", { schema: emptySuccessSchema, retry: NO_RETRY }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(clientNames.length).toBe(before);
    await c.close();
  });

  it("insecure=true (any case) skips verification and warns", async () => {
    const config = await zuliprc("insecure.zuliprc", selfSignedSite, "insecure=True\n");
    const account = await resolveAccount({ config, allowInsecureHttp: false });
    const warnings: string[] = [];
    const c = await clientForAccount(account, (line) => warnings.push(line));
    await expect(c.request("GET", "users/me", { schema: emptySuccessSchema })).resolves.toMatchObject({ result: "success" });
    expect(warnings).toEqual([INSECURE_WARNING]);
    await c.close();
    const strict = await clientForAccount(await resolveAccount({ config: await zuliprc("strict.zuliprc", selfSignedSite, "insecure=FALSE\n"), allowInsecureHttp: false }), (line) => warnings.push(line));
    const err = await strict.request("GET", "users/me", { schema: emptySuccessSchema, retry: NO_RETRY }).catch((e: unknown) => e);
    expect((err as NetworkError).reason).toBe("tls");
    expect(warnings.length).toBe(1);
    await strict.close();
  });

  it("insecure must be true or false; a key without a certificate is refused", () => {
    const base = "[api]\nemail=a@b\nkey=k\nsite=https://x.test\n";
    expect(() => parseZuliprc(`${base}insecure=yes\n`, "/rc")).toThrow(new ConfigError('/rc [api]: insecure is "yes"; it must be true or false'));
    expect(() => parseZuliprc(`${base}client_cert_key=k.pem\n`, "/rc")).toThrow("client_cert_key is set but client_cert is not");
    expect(parseZuliprc(`${base}cert_bundle=~/ca.pem\n`, "/etc/rc").certBundle).toMatch(/^\/.+\/ca\.pem$/);
    expect(parseZuliprc(`${base}cert_bundle=~/ca.pem\n`, "/etc/rc").certBundle).not.toContain("~");
  });

  it("a missing or non-PEM certificate file is one line naming it", async () => {
    const config = await zuliprc("missing.zuliprc", mutualSite, "client_cert=nowhere.pem\n");
    const err = await clientForAccount(await resolveAccount({ config, allowInsecureHttp: false })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(`cannot read the client certificate ${join(dir, "nowhere.pem")} (no such file)`);
    await writeFile(join(dir, "garbage.pem"), "not a certificate\n");
    const garbage = await zuliprc("garbage.zuliprc", mutualSite, "cert_bundle=garbage.pem\n");
    const bad = await clientForAccount(await resolveAccount({ config: garbage, allowInsecureHttp: false })).catch((e: unknown) => e);
    expect((bad as Error).message).toBe(`the CA bundle ${join(dir, "garbage.pem")} is not in PEM format (no "-----BEGIN" line)`);
  });

  it("NODE_EXTRA_CA_CERTS still counts when a cert_bundle is given (the CLI, as a child process)", async () => {
    ensureBuilt();
    // The bundle trusts only the unrelated self-signed certificate; the test CA comes from the environment.
    const config = await zuliprc("extra.zuliprc", mutualSite, "cert_bundle=cert.pem\nclient_cert=client-cert.pem\nclient_cert_key=client-key.pem\n");
    const run = (env: Record<string, string>) => runCli(["api", "GET", "users/me", "--config", config], { env });
    const withExtra = await run({ NODE_EXTRA_CA_CERTS: join(dir, "mtls-ca.pem") });
    expect(withExtra.stderr).toBe("");
    expect(withExtra.code).toBe(0);
    expect(withExtra.stdout).toContain("a@b.test");
    const without = await run({});
    expect(without.code).not.toBe(0);
    expect(without.stderr).toMatch(/the certificate of 127\.0\.0\.1 comes from a self-signed authority that is not trusted/);
  }, 40_000);
});
