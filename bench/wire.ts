/**
 * The register on the wire: its body's bytes as the reference server sends them
 * uncompressed and gzipped (what a client asking with Accept-Encoding gets), the
 * time to the last byte for each over loopback, and the client's streaming decode.
 */
import { request } from "node:http";
import { Readable } from "node:stream";
import { encodeParams } from "../src/api/http.js";
import { readBody } from "../src/api/body.js";
import { registerRequest } from "../src/api/register-request.js";
import { clientRegisterParams } from "../src/sync/register-params.js";
import { GZIP_LEVEL } from "../src/server/compress.js";
import { median, printFigure, startBenchServer } from "./util.js";

const { url, email, apiKey, stop } = await startBenchServer(process.argv[2] ?? "large");
const auth = "Basic " + Buffer.from(`${email}:${apiKey}`).toString("base64");
const form = encodeParams(registerRequest(clientRegisterParams()).params).toString();

function register(acceptEncoding?: string): Promise<{ bytes: Buffer; encoding?: string; ms: number }> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: auth, "content-type": "application/x-www-form-urlencoded" };
    if (acceptEncoding) headers["accept-encoding"] = acceptEncoding;
    const req = request(`${url}/api/v1/register`, { method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ bytes: Buffer.concat(chunks), encoding: res.headers["content-encoding"], ms: performance.now() - t }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(form);
  });
}

const plain: number[] = [];
const packed: number[] = [];
const decode: number[] = [];
let plainBytes = 0;
let packedBytes = 0;
for (let i = 0; i < 5; i++) {
  const a = await register();
  plain.push(a.ms);
  plainBytes = a.bytes.length;
  const b = await register("gzip, deflate, br");
  if (b.encoding !== "gzip") throw new Error(`expected a gzipped register, got ${b.encoding ?? "identity"}`);
  packed.push(b.ms);
  packedBytes = b.bytes.length;
  const t = performance.now();
  const source = Object.assign(Readable.from([b.bytes]), { text: async () => "" });
  const text = await readBody(source, "gzip");
  decode.push(performance.now() - t);
  // Each register has its own queue id and timestamps: the sizes agree to a few bytes.
  if (Math.abs(Buffer.byteLength(text) - plainBytes) > 64) throw new Error("the decoded register differs in size from the uncompressed one");
}
printFigure("register body on the wire, uncompressed", (plainBytes / 1e6).toFixed(2), "MB");
printFigure("register body on the wire, gzip", (packedBytes / 1e6).toFixed(2), "MB");
printFigure("gzip ratio", ((packedBytes / plainBytes) * 100).toFixed(1), "% of the uncompressed bytes");
printFigure("register over loopback, uncompressed (median of 5)", median(plain).toFixed(0), "ms");
printFigure(`register over loopback, gzip level ${GZIP_LEVEL} (median of 5)`, median(packed).toFixed(0), "ms");
printFigure("client's streaming gunzip of the body (median of 5)", median(decode).toFixed(0), "ms");
await stop();
