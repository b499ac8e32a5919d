/**
 * TLS: an https server on 127.0.0.1 with the self-signed certificate in
 * test/fixtures/tls. The client must refuse it by default (NetworkError,
 * reason "tls", not retried) and accept it when the certificate is given as
 * a trusted CA (what --ca-file and the zuliprc's cert_bundle do).
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NetworkError } from "../../src/api/errors.js";
import { ApiClient } from "../../src/api/http.js";
import { emptySuccessSchema } from "../../src/api/schemas/responses.js";
import { clientForAccount } from "../../src/cli/account.js";

const tlsDir = fileURLToPath(new URL("../fixtures/tls/", import.meta.url));
const cert = readFileSync(`${tlsDir}cert.pem`, "utf8");
const key = readFileSync(`${tlsDir}key.pem`, "utf8");

let server: Server;
let site: string;
let hits = 0;

beforeAll(async () => {
  server = createServer({ cert, key }, (_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ result: "success", msg: "" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("TLS", () => {
  it("rejects a self-signed server by default, without retrying", async () => {
    const sleeps: number[] = [];
    const c = new ApiClient({ site, email: "a@b", apiKey: "k" }, { sleep: async (ms) => void sleeps.push(ms) });
    const before = hits;
    const err = await c.request("GET", "users", { schema: emptySuccessSchema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).reason).toBe("tls");
    expect(sleeps).toEqual([]);
    expect(hits).toBe(before);
    await c.close();
  });

  it("accepts it when the certificate is a trusted CA", async () => {
    const c = new ApiClient({ site, email: "a@b", apiKey: "k" }, { ca: cert });
    await expect(c.request("GET", "users", { schema: emptySuccessSchema })).resolves.toMatchObject({ result: "success" });
    await c.close();
  });

  it("the CLI's client reads --ca-file", async () => {
    const c = await clientForAccount({ site, email: "a@b", apiKey: "k", allowInsecureHttp: false, caFile: `${tlsDir}cert.pem` });
    await expect(c.request("GET", "users", { schema: emptySuccessSchema })).resolves.toMatchObject({ result: "success" });
    await c.close();
  });
});
