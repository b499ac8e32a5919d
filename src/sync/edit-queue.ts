/**
 * Edits of a message's text made while offline: kept on disk beside the
 * outbox and saved, in the order made, once the connection is live. Saving
 * an edit sets the text, so an attempt whose answer was lost is simply made
 * again (the server then has nothing to change, which counts as saved); a
 * later edit of the same message replaces a waiting one. A refusal drops the
 * edit and says why.
 */
import { join } from "node:path";
import { z } from "zod";
import { ApiError, describeError } from "../api/errors.js";
import type { ApiClient } from "../api/http.js";
import { updateMessage } from "../api/routes/messages.js";
import { jitteredDelay, type TimerHandle } from "./clock.js";
import { accountStem, FileWriter, readJsonFile, removeStaleTemps, type AccountRef } from "./persist.js";
import type { UpdateMachine } from "./update-machine.js";

export interface PendingEdit {
  messageId: number;
  content: string;
  createdAt: number;
}

export interface EditQueueOptions {
  dir: string;
  account: AccountRef;
  /** Backoff after an attempt that failed on the way. Default 1 s doubling to 30 s. */
  retry?: { baseMs: number; maxMs: number };
  api?: { updateMessage(client: ApiClient, messageId: number, p: { content: string }): Promise<unknown> };
}

const fileSchema = z.object({
  version: z.literal(1),
  edits: z.array(z.object({ messageId: z.number().int(), content: z.string(), createdAt: z.number() })).catch([]),
});

export class EditQueue {
  private edits: PendingEdit[] = [];
  private writer!: FileWriter;
  private readonly listeners = new Set<(refused?: { edit: PendingEdit; error: string }) => void>();
  private readonly offs: Array<() => void> = [];
  private pumping: Promise<void> | undefined;
  private again = false;
  private timer: TimerHandle | undefined;
  private failures = 0;
  private disposed = false;

  private constructor(
    private readonly machine: UpdateMachine,
    private readonly opts: EditQueueOptions,
  ) {}

  static async open(machine: UpdateMachine, opts: EditQueueOptions): Promise<EditQueue> {
    const q = new EditQueue(machine, opts);
    const path = join(opts.dir, `edits-${accountStem(opts.account)}.json`);
    await removeStaleTemps(path);
    const parsed = fileSchema.safeParse(await readJsonFile(path));
    q.edits = parsed.success ? parsed.data.edits : [];
    q.writer = new FileWriter(path, opts.dir, () => ({ version: 1, edits: q.edits }));
    q.offs.push(
      machine.onState((s) => {
        if (s.kind === "live") q.pump();
      }),
      machine.onStore(() => q.pump()),
    );
    q.pump();
    return q;
  }

  /** Keeps an edit to save when the connection allows; replaces a waiting edit of the same message. */
  enqueue(messageId: number, content: string): PendingEdit {
    const edit = { messageId, content, createdAt: this.machine.clock.now() };
    this.edits = [...this.edits.filter((e) => e.messageId !== messageId), edit];
    this.changed();
    this.pump();
    return edit;
  }

  /** Edits not saved yet, oldest first. */
  pending(): readonly PendingEdit[] {
    return this.edits;
  }

  /** Called on every change; with `refused` when the server turned an edit down. */
  onChange(fn: (refused?: { edit: PendingEdit; error: string }) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resolves when nothing is being sent (tests; shutdown). */
  async idle(): Promise<void> {
    for (let i = 0; i < 100 && this.pumping; i++) await this.pumping;
    await this.writer.idle();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const off of this.offs.splice(0)) off();
    this.timer?.cancel();
    await this.pumping;
    await this.writer.write();
    await this.writer.idle();
  }

  private changed(refused?: { edit: PendingEdit; error: string }): void {
    void this.writer.write();
    for (const fn of this.listeners) fn(refused);
  }

  private pump(): void {
    if (this.disposed) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = (async () => {
      try {
        do {
          this.again = false;
          await this.step();
        } while (this.again && !this.disposed);
      } finally {
        this.pumping = undefined;
      }
    })();
  }

  private async step(): Promise<void> {
    const save = this.opts.api?.updateMessage ?? ((c: ApiClient, id: number, p: { content: string }) => updateMessage(c, id, p));
    for (let guard = 0; guard < 10_000 && !this.disposed; guard++) {
      const head = this.edits[0];
      if (!head || this.timer || this.machine.state.kind !== "live") return;
      let refused: string | undefined;
      try {
        await save(this.machine.client, head.messageId, { content: head.content });
        this.failures = 0;
      } catch (err) {
        const final = err instanceof ApiError && !err.isRateLimit && err.status >= 400 && err.status < 500 && !err.isAuthFailure;
        // The same text again: an earlier attempt landed.
        const landed = final && /nothing to change/i.test(err.message);
        if (!final) {
          this.backoff(err);
          return;
        }
        if (!landed) refused = describeError(err);
      }
      // A newer edit of the same message may have replaced this one meanwhile: it stays.
      this.edits = this.edits.filter((e) => e !== head);
      this.changed(refused === undefined ? undefined : { edit: head, error: refused });
    }
  }

  private backoff(err: unknown): void {
    const retryAfter = (err as { retryAfter?: unknown }).retryAfter;
    let delay = jitteredDelay(this.failures++, this.opts.retry ?? { baseMs: 1000, maxMs: 30_000 });
    if (typeof retryAfter === "number") delay = Math.max(delay, retryAfter * 1000);
    this.timer = this.machine.clock.setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, delay);
  }
}
