/**
 * Uploads and downloads against the reference server (its own process, on
 * 127.0.0.1): a file streamed from disk as multipart, then saved with the
 * account's credentials. Prints throughput and how much the client's memory
 * grew meanwhile (the file is streamed, never held whole).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../src/api/http.js";
import { uploadFile } from "../src/api/routes/uploads.js";
import { saveLink } from "../src/sync/actions/files.js";
import type { ActionSession } from "../src/sync/actions/result.js";
import { median, printFigure, startBenchServer } from "./util.js";

const mib = Number(process.argv[2] ?? "20");
const runs = Number(process.argv[3] ?? "3");
const server = await startBenchServer("demo");
const dir = mkdtempSync(join(tmpdir(), "termchat-bench-files-"));
try {
  const client = new ApiClient({ site: server.url, email: server.email, apiKey: server.apiKey });
  const session = { machine: { client } } as unknown as Pick<ActionSession, "machine">;
  const file = join(dir, "payload.bin");
  const bytes = Buffer.alloc(mib * 1024 * 1024);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
  writeFileSync(file, bytes);
  const up: number[] = [];
  const down: number[] = [];
  let peak = 0;
  const rss0 = process.memoryUsage().rss;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - rss0)), 5);
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    const res = await uploadFile(client, file);
    up.push(performance.now() - t);
    t = performance.now();
    const saved = await saveLink(session, res.url, dir);
    if (!saved.ok) throw new Error(saved.error.message);
    down.push(performance.now() - t);
    rmSync(saved.value.path);
  }
  clearInterval(sample);
  await client.close();
  printFigure(`upload of ${mib} MiB, median of ${runs}`, Math.round(median(up)), "ms");
  printFigure("upload throughput", (mib / (median(up) / 1000)).toFixed(0), "MiB/s");
  printFigure(`authenticated download of ${mib} MiB to disk, median of ${runs}`, Math.round(median(down)), "ms");
  printFigure("download throughput", (mib / (median(down) / 1000)).toFixed(0), "MiB/s");
  printFigure("client RSS growth during the transfers (peak)", (peak / 1024 / 1024).toFixed(1), "MiB");
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
