/**
 * The decoder thread and its queue: images asked for together are decoded one
 * after another on one thread, from the code the bundle carries; refusals
 * cost no thread; a decode that hangs or exhausts the thread's heap is ended
 * with one clear line and the next image still decodes; an image no longer
 * wanted leaves the queue; an idle thread is ended.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ImageTooLargeError } from "../../src/render/images/budget.js";
import { decodeImage } from "../../src/render/images/decode.js";
import { ImageDecoderHost } from "../../src/render/images/worker-host.js";
import { writePng } from "../fixtures/images/png-writer.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/images/${name}`, import.meta.url));
const png = (side: number, tint = 0) => writePng({ width: side, height: side, colorType: 2, bitDepth: 8, sample: (x, y) => [(x * 7 + tint) % 256, (y * 5) % 256, tint] });

/**
 * A stand-in thread: answers each job after `ms`, as a 1×1 image whose red is the job's order of
 * arrival — and fails a job that arrives while another is in hand. "hang" never answers; "heap"
 * fills its V8 heap until the limit ends it.
 */
function standIn(behaviour: "answer" | "hang" | "heap", ms = 30): string {
  return `
    const { parentPort } = require("node:worker_threads");
    let busy = false, seen = 0;
    parentPort.on("message", (job) => {
      if (${JSON.stringify(behaviour)} === "hang") return;
      if (${JSON.stringify(behaviour)} === "heap") { const keep = []; for (;;) keep.push({ a: [1, 2, 3], b: "x".repeat(64) + keep.length }); }
      if (busy) return parentPort.postMessage({ id: job.id, ok: false, error: "two at once" });
      busy = true;
      const order = seen++;
      setTimeout(() => {
        busy = false;
        parentPort.postMessage({ id: job.id, ok: true, width: 1, height: 1, data: new Uint8Array([order, job.bytes.length > 0 ? 1 : 0, 0, 255]), source: { kind: "png", width: 1, height: 1 } });
      }, ${ms});
    });`;
}

let host: ImageDecoderHost | undefined;
afterEach(() => host?.close());

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`never: ${what}`);
}

describe("the decoder thread", () => {
  it("decodes every format on the thread started from the bundled code, as the decoders do in place", async () => {
    host = new ImageDecoderHost();
    for (const file of [png(40, 9), fixture("progressive.jpg"), fixture("lossy.webp"), fixture("solid.webp")]) {
      const inPlace = await decodeImage(Buffer.from(file), 20, 20);
      const onThread = await host.decode(Buffer.from(file), 20, 20);
      expect([onThread.width, onThread.height, onThread.source.kind]).toEqual([inPlace.width, inPlace.height, inPlace.source.kind]);
      expect(Buffer.from(onThread.data).equals(Buffer.from(inPlace.data))).toBe(true);
    }
    expect(host.stats).toMatchObject({ threads: 1, decoded: 4, failed: 0 });
  });

  it("images asked for together wait their turn: one thread, one image at a time, in order", async () => {
    host = new ImageDecoderHost({ source: standIn("answer") });
    const files = [1, 2, 3, 4, 5].map((i) => png(8, i));
    const all = files.map((f) => host!.decode(f, 8, 8));
    expect(host.waiting).toBe(4); // one handed to the thread, four queued
    const done = await Promise.all(all);
    expect(done.map((d) => d.data[0])).toEqual([0, 1, 2, 3, 4]);
    expect(done.every((d) => d.data[1] === 1)).toBe(true); // each file reached the thread whole
    expect(host.stats).toMatchObject({ threads: 1, decoded: 5 });
  });

  it("a header over the budget is refused without starting a thread, naming the size", async () => {
    host = new ImageDecoderHost({ source: standIn("answer") });
    const huge = png(1);
    huge.writeUInt32BE(30_000, 16);
    huge.writeUInt32BE(30_000, 20);
    await expect(host.decode(huge, 80, 16)).rejects.toBeInstanceOf(ImageTooLargeError);
    await expect(host.decode(Buffer.from("not an image"), 80, 16)).rejects.toThrow(/not an image in a known format/);
    expect(host.stats).toMatchObject({ threads: 0, refused: 1 });
  });

  it("a decode that takes too long is ended, and the next image gets a new thread", async () => {
    host = new ImageDecoderHost({ source: standIn("hang"), timeoutMs: 200 });
    await expect(host.decode(png(4), 4, 4)).rejects.toThrow("the image took too long to decode");
    expect(host.stats.ended).toBe(1);
    await expect(host.decode(png(4), 4, 4)).rejects.toThrow("the image took too long to decode");
    expect(host.stats.threads).toBe(2);
  });

  it("a thread that fills its heap is stopped by its limits, with one clear line", async () => {
    host = new ImageDecoderHost({ source: standIn("heap") });
    await expect(host.decode(png(4), 4, 4)).rejects.toThrow("the image needs more memory than a preview may take");
  });

  it("an image no longer wanted leaves the queue; an idle thread is ended", async () => {
    host = new ImageDecoderHost({ source: standIn("answer", 100), idleMs: 50 });
    const stop = new AbortController();
    const first = host.decode(png(4, 1), 4, 4);
    const second = host.decode(png(4, 2), 4, 4, stop.signal);
    stop.abort();
    await expect(second).rejects.toThrow("no longer wanted");
    expect((await first).data[0]).toBe(0);
    await until("the idle thread ended", () => host!.stats.ended === 1);
    expect(host.stats.decoded).toBe(1);
  });
});
