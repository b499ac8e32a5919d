/**
 * Decoding off the main thread: a worker thread that decodes one image at a
 * time, images asked for together waiting their turn in a queue. The main
 * thread only reads the header (to refuse what the budget does not allow
 * without starting anything) and hands the file over; keys and frames never
 * wait for a decode. The thread is started on the first image, from code
 * carried inside the bundle (no file of its own to find), with V8 heap
 * limits; it is ended when a decode takes too long, when the image is no
 * longer wanted, and after a few idle seconds, so its memory goes back.
 */
import { Worker } from "node:worker_threads";
import workerSource from "termchat:image-decoder";
import { ImageTooLargeError, planDecode } from "./budget.js";
import { readImageHeader } from "./header.js";
import { ImageFormatError } from "./pixels.js";
import type { DecodeAnswer, DecodeJob } from "./worker-main.js";
import type { DecodedImage } from "./decode.js";

export interface DecoderHostOptions {
  /** End the idle thread after this long (default 3 s). */
  idleMs?: number;
  /** A decode taking longer is ended and fails (default 20 s). */
  timeoutMs?: number;
  /** The thread's code (tests); the bundled decoder by default. */
  source?: string;
}

interface Job {
  id: number;
  bytes: Uint8Array;
  maxWidth: number;
  maxHeight: number;
  resolve: (image: DecodedImage) => void;
  reject: (err: Error) => void;
}

/** V8 limits of the decoder's thread: its pixels live outside the heap; its heap holds little. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2, codeRangeSizeMb: 8, stackSizeMb: 2 };

export class ImageDecoderHost {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private running: Job | undefined;
  private timer: NodeJS.Timeout | undefined;
  private idle: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closed = false;
  readonly stats = { threads: 0, decoded: 0, refused: 0, failed: 0, ended: 0 };

  constructor(private readonly o: DecoderHostOptions = {}) {}

  /**
   * Decodes `bytes` into at most `maxWidth`×`maxHeight` on the decoder thread,
   * after the images asked for before it. Refused at once (ImageTooLargeError)
   * when the header promises more than the budget allows.
   */
  decode(bytes: Uint8Array, maxWidth: number, maxHeight: number, signal?: AbortSignal): Promise<DecodedImage> {
    if (this.closed) return Promise.reject(new ImageFormatError("the decoder is closed"));
    try {
      const header = readImageHeader(bytes);
      if (!header) throw new ImageFormatError("not an image in a known format (PNG, JPEG, GIF, WebP)");
      planDecode(header, bytes.byteLength, maxWidth, maxHeight);
    } catch (err) {
      if (err instanceof ImageTooLargeError) this.stats.refused++;
      return Promise.reject(err as Error);
    }
    return new Promise<DecodedImage>((resolve, reject) => {
      const onAbort = () => this.abandon(job);
      const settled = () => signal?.removeEventListener("abort", onAbort);
      const job: Job = {
        id: this.nextId++,
        bytes,
        maxWidth,
        maxHeight,
        resolve: (image) => (settled(), resolve(image)),
        reject: (err) => (settled(), reject(err)),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** Images waiting for the thread. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Ends the thread; what waits or runs fails. */
  close(): void {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new ImageFormatError("the decoder is closed"));
    this.fail(new ImageFormatError("the decoder is closed"));
    this.end();
  }

  private abandon(job: Job): void {
    const at = this.queue.indexOf(job);
    if (at >= 0) {
      this.queue.splice(at, 1);
      job.reject(new ImageFormatError("no longer wanted"));
    } else if (this.running === job) {
      this.fail(new ImageFormatError("no longer wanted"));
      this.end();
      this.pump();
    }
  }

  private start(): Worker {
    const worker = new Worker(this.o.source ?? workerSource, { eval: true, resourceLimits: RESOURCE_LIMITS, stdout: true, stderr: true });
    this.stats.threads++;
    // Whatever the thread might print stays away from the terminal.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    worker.on("message", (answer: DecodeAnswer) => this.answered(answer));
    worker.on("error", (err: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.fail(new ImageFormatError(err.code === "ERR_WORKER_OUT_OF_MEMORY" ? "the image needs more memory than a preview may take" : `the decoder stopped: ${err.message.split("\n")[0]}`));
      this.pump();
    });
    worker.on("exit", () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.fail(new ImageFormatError("the decoder stopped"));
      this.pump();
    });
    return worker;
  }

  private end(): void {
    const worker = this.worker;
    this.worker = undefined;
    clearTimeout(this.idle);
    if (worker) {
      this.stats.ended++;
      void worker.terminate();
    }
  }

  private fail(err: Error): void {
    const job = this.running;
    this.running = undefined;
    clearTimeout(this.timer);
    if (job) {
      this.stats.failed++;
      job.reject(err);
    }
  }

  private answered(answer: DecodeAnswer): void {
    const job = this.running;
    if (!job || job.id !== answer.id) return;
    this.running = undefined;
    clearTimeout(this.timer);
    if (answer.ok) {
      this.stats.decoded++;
      job.resolve({ width: answer.width, height: answer.height, data: answer.data, source: answer.source });
    } else {
      this.stats.failed++;
      job.reject(answer.tooLarge ? new ImageTooLargeError(answer.tooLarge.width, answer.tooLarge.height) : new ImageFormatError(answer.error));
    }
    this.pump();
  }

  private pump(): void {
    if (this.closed || this.running) return;
    const job = this.queue.shift();
    if (!job) {
      clearTimeout(this.idle);
      if (this.worker) this.idle = setTimeout(() => this.end(), this.o.idleMs ?? 3000).unref();
      return;
    }
    clearTimeout(this.idle);
    this.running = job;
    try {
      this.worker ??= this.start();
    } catch (err) {
      this.fail(new ImageFormatError(`the decoder could not start: ${(err as Error).message.split("\n")[0]}`));
      return this.pump();
    }
    this.timer = setTimeout(() => {
      this.fail(new ImageFormatError("the image took too long to decode"));
      this.end();
      this.pump();
    }, this.o.timeoutMs ?? 20_000).unref();
    // The file moves to the thread without a copy when it owns its memory (and that memory can
    // move: a WebAssembly memory cannot); otherwise a copy of it moves.
    const { bytes } = job;
    job.bytes = new Uint8Array(0);
    const post = (b: Uint8Array) => {
      const message: DecodeJob = { id: job.id, bytes: b, maxWidth: job.maxWidth, maxHeight: job.maxHeight };
      this.worker!.postMessage(message, [b.buffer as ArrayBuffer]);
    };
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    try {
      post(owned ? bytes : bytes.slice());
    } catch {
      post(bytes.slice());
    }
  }
}
