/**
 * The outbox's edit lane: changes to messages already on the server, kept on
 * disk beside the unsent messages until the server answered.
 *
 * A content edit says what the text must become, so it is safe to ask again:
 * after a failure that never reached the server it waits for the connection
 * and is sent again; after one of unknown fate (reset, timeout, 5xx) the
 * message's source is read first, and the edit is sent again only when the
 * server does not have the new text yet. A refusal (4xx) is final: the entry
 * stays, failed, with its text, until the reader tries again or drops it.
 *
 * A move (new topic or channel, with its propagate mode) is made at most
 * once: sent again, it could carry along messages that arrived in between.
 * Any failure of a move is reported, never repeated.
 *
 * Edits are made in the order they were written; a newer edit of a message
 * replaces an older one that has not left yet.
 */
import { ApiError, describeError, neverSent } from "../api/errors.js";
import type { ApiClient } from "../api/http.js";
import { getMessage, updateMessage, type UpdateMessageParams } from "../api/routes/messages.js";
import type { TimerHandle } from "./clock.js";
import type { EditEntry } from "./outbox-file.js";
import type { UpdateMachine } from "./update-machine.js";
import { SerialPump } from "./serial-pump.js";

export type { EditEntry, EditState } from "./outbox-file.js";

export interface EditApi {
  updateMessage(client: ApiClient, messageId: number, p: UpdateMessageParams, signal?: AbortSignal): Promise<unknown>;
  getMessage(client: ApiClient, messageId: number, p: { apply_markdown?: boolean }, signal?: AbortSignal): Promise<{ message: { content: string } }>;
}

export interface EditLaneOptions {
  /** Wait after an attempt of unknown fate before its message is read. Default 3 s. */
  settleMs?: number;
  /** Timeout of one request. Default 30 s. */
  timeoutMs?: number;
  /** Backoff after a failure that never reached the server. Default 1 s doubling to 30 s. */
  retry?: { baseMs: number; maxMs: number };
  api?: Partial<EditApi>;
}

/**
 * - `saved`: the server has the edit.
 * - `queued`: the first attempt did not reach the server (or waits behind another edit); it is kept and sent when the connection allows.
 * - `failed`: refused, or a move whose attempt failed; `error` says why.
 */
export type EditOutcome = { kind: "saved" } | { kind: "queued" } | { kind: "failed"; error: string; code?: string };

/** Whether the edit moves messages (topic or channel): made at most once. */
export function isMove(p: UpdateMessageParams): boolean {
  return p.topic !== undefined || p.stream_id !== undefined;
}

const normalize = (s: string) => s.replace(/\r\n?/g, "\n").trimEnd();

export class EditLane {
  /** Edits made by this lane (a part of their ids). */
  private made = 0;
  private readonly api: EditApi;
  private readonly firstWaiters = new Map<string, Array<(o: EditOutcome) => void>>();
  private readonly finalWaiters = new Map<string, Array<(o: EditOutcome) => void>>();
  private readonly outcomes = new Map<string, EditOutcome>();
  /** Entries whose first answer was given. */
  private readonly answered = new Set<string>();
  private readonly listeners = new Set<(e: EditEntry, o: EditOutcome) => void>();
  private wakeTimer: TimerHandle | undefined;
  private readonly pumper = new SerialPump(() => this.step(), () => this.disposed);
  private disposed = false;

  constructor(
    private readonly machine: UpdateMachine,
    private entries: EditEntry[],
    private readonly save: () => Promise<void>,
    private readonly changed: () => void,
    private readonly opts: EditLaneOptions = {},
  ) {
    this.api = { updateMessage, getMessage, ...opts.api };
  }

  /** Every edit not yet on the server (failed ones included), oldest first. */
  all(): readonly EditEntry[] {
    return this.entries;
  }

  /** The entries, for the outbox file. */
  snapshot(): EditEntry[] {
    return this.entries;
  }

  /** Queues an edit and tries it at once, whatever the connection's state. */
  enqueue(messageId: number, params: UpdateMessageParams): EditEntry {
    const now = this.machine.clock.now();
    for (const old of this.entries.filter((x) => x.messageId === messageId && (x.state === "waiting" || x.state === "failed"))) {
      this.entries = this.entries.filter((x) => x !== old);
      this.finish(old, { kind: "failed", error: "replaced by a newer edit" }, false);
    }
    // The time and a count of this lane's; never an id an entry kept from an earlier run has.
    let id: string;
    do id = `edit.${now.toString(36)}.${(++this.made).toString(36)}`;
    while (this.entries.some((x) => x.id === id));
    const entry: EditEntry = { id, messageId, params: { ...params }, createdAt: now, state: "waiting", attempts: 0 };
    this.entries.push(entry);
    this.changedAndSaved();
    this.pump();
    return entry;
  }

  /** Resolves after the entry's first attempt: saved, refused, or queued for later. Never rejects. */
  firstAnswer(id: string): Promise<EditOutcome> {
    const done = this.outcomes.get(id);
    if (done) return Promise.resolve(done);
    const e = this.entries.find((x) => x.id === id);
    if (!e) return Promise.resolve({ kind: "failed", error: "not in the outbox" });
    if (e.state === "failed") return Promise.resolve({ kind: "failed", error: e.error ?? "refused", code: e.code });
    if (this.answered.has(id)) return Promise.resolve({ kind: "queued" });
    return this.wait(this.firstWaiters, id);
  }

  /** Resolves when the server has the edit, or it failed for good. Never rejects. */
  settled(id: string): Promise<EditOutcome> {
    const done = this.outcomes.get(id);
    if (done) return Promise.resolve(done);
    const e = this.entries.find((x) => x.id === id);
    if (!e) return Promise.resolve({ kind: "failed", error: "not in the outbox" });
    if (e.state === "failed") return Promise.resolve({ kind: "failed", error: e.error ?? "refused", code: e.code });
    return this.wait(this.finalWaiters, id);
  }

  /** Called for every edit that reached its end (saved, or failed after it was queued). */
  onSettled(fn: (e: EditEntry, o: EditOutcome) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Tries a failed edit again (a move too: the reader asked for it). */
  retry(id: string): void {
    const e = this.entries.find((x) => x.id === id);
    if (!e || e.state !== "failed") return;
    Object.assign(e, { state: "waiting", error: undefined, code: undefined, notBefore: undefined, attempts: 0 });
    this.answered.delete(e.id);
    this.outcomes.delete(e.id);
    this.changedAndSaved();
    this.pump();
  }

  /** Drops a failed or waiting edit; gives back its text (for the compose box) when it had one. */
  discard(id: string): string | undefined {
    const e = this.entries.find((x) => x.id === id);
    if (!e || (e.state !== "failed" && e.state !== "waiting")) return undefined;
    this.entries = this.entries.filter((x) => x !== e);
    this.finish(e, { kind: "failed", error: "discarded" }, false);
    this.changedAndSaved();
    return e.params.content;
  }

  /** Wakes the lane (the connection is live again, or the store changed). */
  pump(): void {
    this.pumper.wake();
  }

  async idle(): Promise<void> {
    await this.pumper.idle();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.wakeTimer?.cancel();
    await this.pumper.current;
  }

  private async step(): Promise<void> {
    for (let guard = 0; guard < 10_000 && !this.disposed; guard++) {
      const head = this.entries.find((e) => e.state !== "failed");
      if (!head || head.state === "sending") return;
      // Later entries of the line learn at once that they wait.
      for (const e of this.entries) if (e !== head && !this.answered.has(e.id)) this.first(e, { kind: "queued" });
      // A first attempt goes out whatever the connection says; later ones wait for it to be live.
      if (head.attempts > 0 && this.machine.state.kind !== "live") return;
      const now = this.machine.clock.now();
      const due = head.state === "unknown" ? Math.max(head.notBefore ?? 0, (head.attemptEndedAt ?? 0) + (this.opts.settleMs ?? 3000)) : head.notBefore ?? 0;
      if (due > now) {
        this.wakeAt(due);
        return;
      }
      if (head.state === "unknown") await this.verify(head);
      else await this.attempt(head);
    }
  }

  private async attempt(e: EditEntry): Promise<void> {
    e.state = "sending";
    e.attempts++;
    // On disk before the request: after a crash a content edit is checked, a move is reported.
    this.changed();
    await this.save();
    try {
      await this.api.updateMessage(this.machine.client, e.messageId, e.params, AbortSignal.timeout(this.opts.timeoutMs ?? 30_000));
      this.saved(e);
    } catch (err) {
      e.attemptEndedAt = this.machine.clock.now();
      const error = describeError(err);
      if (err instanceof ApiError && err.status < 500 && !err.isRateLimit) this.fail(e, error, err.code);
      else if (isMove(e.params)) this.fail(e, `${neverSent(err) ? "Not moved" : "The move may or may not have happened"}: ${error}. Moves are not repeated on their own.`, "move-interrupted");
      else {
        e.error = error;
        if (err instanceof ApiError) {
          e.state = "waiting";
          e.notBefore = e.attemptEndedAt + Math.max(1000, (err.retryAfter ?? 1) * 1000);
        } else if (neverSent(err)) {
          e.state = "waiting";
          e.notBefore = e.attemptEndedAt + this.backoff(e.attempts);
        } else e.state = "unknown"; // it may have landed: read the message before sending it again
        this.first(e, { kind: "queued" });
        this.changedAndSaved();
      }
    }
  }

  /** Settles a content edit of unknown fate from the message's source on the server. */
  private async verify(e: EditEntry): Promise<void> {
    try {
      const res = await this.api.getMessage(this.machine.client, e.messageId, { apply_markdown: false }, AbortSignal.timeout(this.opts.timeoutMs ?? 30_000));
      if (normalize(res.message.content) === normalize(e.params.content ?? "")) this.saved(e);
      else {
        e.state = "waiting"; // it never landed: now it is safe to send
        e.notBefore = undefined;
        this.changedAndSaved();
      }
    } catch (err) {
      if (err instanceof ApiError && err.status < 500 && !err.isRateLimit) this.fail(e, describeError(err), err.code);
      else {
        e.error = describeError(err);
        e.notBefore = this.machine.clock.now() + this.backoff(e.attempts);
        this.changed();
      }
    }
  }

  private saved(e: EditEntry): void {
    this.entries = this.entries.filter((x) => x !== e);
    this.finish(e, { kind: "saved" }, true);
    this.changedAndSaved();
  }

  private fail(e: EditEntry, error: string, code: string): void {
    e.state = "failed";
    e.error = error;
    e.code = code;
    this.finish(e, { kind: "failed", error, code }, true);
    this.changedAndSaved();
  }

  private first(e: EditEntry, o: EditOutcome): void {
    this.answered.add(e.id);
    const list = this.firstWaiters.get(e.id);
    this.firstWaiters.delete(e.id);
    for (const fn of list ?? []) fn(o);
  }

  private finish(e: EditEntry, o: EditOutcome, tell: boolean): void {
    this.outcomes.set(e.id, o);
    const late = this.answered.has(e.id);
    this.first(e, o);
    const list = this.finalWaiters.get(e.id);
    this.finalWaiters.delete(e.id);
    for (const fn of list ?? []) fn(o);
    // A failure the first answer carried was shown then; a later one is news.
    if (tell && (o.kind === "saved" || late)) for (const fn of this.listeners) fn(e, o);
  }

  private wait(map: Map<string, Array<(o: EditOutcome) => void>>, id: string): Promise<EditOutcome> {
    return new Promise((resolve) => {
      const list = map.get(id) ?? [];
      list.push(resolve);
      map.set(id, list);
    });
  }

  private backoff(attempts: number): number {
    const b = this.opts.retry ?? { baseMs: 1000, maxMs: 30_000 };
    return Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, Math.min(20, attempts - 1)));
  }

  private wakeAt(at: number): void {
    this.wakeTimer?.cancel();
    this.wakeTimer = this.machine.clock.setTimeout(() => {
      this.wakeTimer = undefined;
      this.pump();
    }, at - this.machine.clock.now());
  }

  private changedAndSaved(): void {
    this.changed();
    void this.save();
  }
}
