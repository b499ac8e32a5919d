/**
 * The image decoder's thread (worker-host.ts starts it): it decodes one file
 * at a time and sends back the pixels, or one line saying why not. The build
 * bundles this file on its own and carries it inside the client's bundle as
 * text (scripts/image-worker.mjs), so the thread loads only the decoders.
 */
import { parentPort } from "node:worker_threads";
import { ImageTooLargeError } from "./budget.js";
import { decodeImage } from "./decode.js";
import type { ImageKind } from "./header.js";

export interface DecodeJob {
  id: number;
  bytes: Uint8Array;
  maxWidth: number;
  maxHeight: number;
}

export type DecodeAnswer =
  | { id: number; ok: true; width: number; height: number; data: Uint8Array; source: { kind: ImageKind; width: number; height: number } }
  | { id: number; ok: false; error: string; tooLarge?: { width: number; height: number } };

/** V8's collector, when the process runs with --expose-gc (the launcher sets it, bin/v8-flags.cjs). */
const gc = (globalThis as { gc?: () => void }).gc;

parentPort?.on("message", (job: DecodeJob) => {
  decodeImage(job.bytes, job.maxWidth, job.maxHeight, gc ? { collect: gc } : {}).then(
    (p) => {
      const answer: DecodeAnswer = { id: job.id, ok: true, width: p.width, height: p.height, data: p.data, source: { kind: p.source.kind, width: p.source.width, height: p.source.height } };
      parentPort!.postMessage(answer, [p.data.buffer as ArrayBuffer]);
    },
    (err: unknown) => {
      const error = (err instanceof Error ? err.message : String(err)).split("\n")[0] ?? "could not be decoded";
      const answer: DecodeAnswer = { id: job.id, ok: false, error, ...(err instanceof ImageTooLargeError && { tooLarge: { width: err.width, height: err.height } }) };
      parentPort!.postMessage(answer);
    },
  );
});
