/**
 * The outbox: messages are sent from here, exactly once, whatever the
 * connection does.
 *
 *   enqueue ─▶ waiting ──(live, head of the line)──▶ sending ──(200)──────────────▶ sent
 *                ▲   ▲                                 │  │ ╲──(4xx refusal)──────▶ failed(reason) ──retry()──▶ waiting
 *                │   └──(never reached the server /    │  │
 *                │       429 retry-after)──────────────┘  └──(timeout, reset, 5xx, odd body)──▶ unknown
 *                │                                                                              │
 *                └──────────(live again, settle delay passed, not in the conversation's history)┘
 *                                   unknown ──(our echo, or found in the history)──▶ sent
 *
 * A send is never retried blindly. Each attempt carries `queue_id` and the
 * entry's `local_id`, so the message event of any attempt that landed comes
 * back to us with `local_message_id`. When an attempt's fate is unknown we
 * wait for that echo; if the queue was lost (or the process restarted), we
 * look at the conversation's recent messages for one from us, with our
 * content, newer than the entry (`floorId`) and not already claimed by
 * another entry. Only when it is not there is the message sent again.
 * Entries are persisted before every attempt, so a crash mid-send comes
 * back as `unknown` and is checked, not resent.
 *
 * Messages are sent in order: the oldest unsettled entry holds back the
 * later ones (failed entries do not: they wait for the user).
 */
import { ApiError, describeError, neverSent } from "../api/errors.js";
import type { ApiClient } from "../api/http.js";
import { getMessages, sendMessage, type SendMessageParams } from "../api/routes/messages.js";
import type { GetMessagesResponse, SendMessageResponse } from "../api/schemas/responses.js";
import type { Message } from "../api/schemas/common.js";
import type { ServerEvent } from "../api/schemas/events.js";
import { narrowToApi, type Narrow } from "../model/narrow.js";
import type { Store } from "../model/store.js";
import type { TimerHandle } from "./clock.js";
import { EditLane, type EditLaneOptions } from "./outbox-edits.js";
import { OutboxFile, targetInNarrow, targetNarrow, type OutboxEntry, type SendTarget } from "./outbox-file.js";
import { isCopyOf } from "./outbox-match.js";
import type { AccountRef } from "./persist.js";
import type { UpdateMachine } from "./update-machine.js";
import { SerialPump } from "./serial-pump.js";

export type { OutboxEntry, OutboxState, SendTarget } from "./outbox-file.js";
export { targetInNarrow, targetNarrow } from "./outbox-file.js";

export interface OutboxApi {
  sendMessage(client: ApiClient, p: SendMessageParams, signal?: AbortSignal): Promise<SendMessageResponse>;
  getMessages(client: ApiClient, p: Parameters<typeof getMessages>[1], signal?: AbortSignal): Promise<GetMessagesResponse>;
}

export interface OutboxOptions {
  /** Directory of the outbox file (tests pass a temporary one). */
  dir: string;
  account: AccountRef;
  /** How long a message stays hidden before it is shown as pending. Default 500 ms. */
  showAfterMs?: number;
  /** Time given to an attempt of unknown fate to show up before the history is checked. Default 3 s. */
  settleMs?: number;
  /** Timeout of one send request. Default 30 s. */
  sendTimeoutMs?: number;
  /** Backoff after a send that never reached the server. Default 1 s doubling to 30 s. */
  retry?: { baseMs: number; maxMs: number };
  api?: Partial<OutboxApi>;
  /** The edit lane's timings and requests (see outbox-edits.ts). */
  edits?: EditLaneOptions;
}

type Outcome = { kind: "sent"; messageId: number } | { kind: "failed"; error: string };

/** A local id no other entry of this outbox has had: the time, the process, a count of this outbox's, and chance. */
function newLocalId(now: number, count: number): string {
  return `${now.toString(36)}.${process.pid.toString(36)}.${count.toString(36)}.${Math.random().toString(36).slice(2, 8)}`;
}

export class Outbox {
  private entries: OutboxEntry[] = [];
  /** Entries made by this outbox (a part of their local ids). */
  private made = 0;
  private claimed: number[] = [];
  private file!: OutboxFile;
  /** Edits of messages already sent: kept and retried like sends, moves made at most once. */
  edits!: EditLane;
  private readonly listeners = new Set<() => void>();
  private readonly waiters = new Map<string, Array<(o: Outcome) => void>>();
  /** Outcomes of entries settled in this run (for `settled` asked late). */
  private readonly outcomes = new Map<string, Outcome>();
  private readonly timers = new Set<TimerHandle>();
  private wakeTimer: TimerHandle | undefined;
  private readonly pumper = new SerialPump(() => this.step(), () => this.disposed);
  private readonly unsubscribe: Array<() => void> = [];
  private readonly api: OutboxApi;
  private disposed = false;

  private constructor(
    private readonly machine: UpdateMachine,
    private readonly opts: OutboxOptions,
  ) {
    this.api = { sendMessage, getMessages, ...opts.api };
  }

  /** Opens the account's outbox (with what an earlier run left unsent) and starts sending when live. */
  static async open(machine: UpdateMachine, opts: OutboxOptions): Promise<Outbox> {
    const box = new Outbox(machine, opts);
    const loaded = await OutboxFile.load(opts.dir, opts.account, () => ({ entries: box.entries, claimed: box.claimed, edits: box.edits.snapshot() }));
    box.file = loaded.file;
    box.edits = new EditLane(machine, loaded.edits, () => box.file.save(), () => box.changed(), opts.edits);
    box.entries = loaded.entries;
    box.claimed = loaded.claimed;
    box.unsubscribe.push(
      machine.onState((s) => {
        if (s.kind === "live") {
          box.pump();
          box.edits.pump();
        }
      }),
      machine.onEvents((events, store) => box.onEvents(events, store)),
      machine.onStore(() => box.pump()),
    );
    box.pump();
    box.edits.pump();
    return box;
  }

  private get clock() {
    return this.machine.clock;
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Queues a message; it is sent when the connection allows. The UI may clear its compose box at once. */
  enqueue(target: SendTarget, content: string): OutboxEntry {
    const now = this.clock.now();
    const entry: OutboxEntry = {
      id: newLocalId(now, ++this.made),
      target: target.type === "direct" ? { type: "direct", userIds: [...target.userIds].sort((a, b) => a - b) } : { ...target },
      content,
      createdAt: now,
      state: "waiting",
      attempts: 0,
      floorId: this.machine.maxMessageId,
    };
    this.entries.push(entry);
    // Shown as pending only if still unsent after a moment: a quick send never flickers.
    this.later(this.opts.showAfterMs ?? 500, () => this.changed());
    this.changedAndSaved();
    this.pump();
    return entry;
  }

  /** Resolves when the entry is sent (its message id) or refused; never rejects. */
  settled(id: string): Promise<Outcome> {
    const done = this.outcomes.get(id);
    if (done) return Promise.resolve(done);
    const e = this.entries.find((x) => x.id === id);
    if (!e) return Promise.resolve({ kind: "failed", error: "not in the outbox" });
    if (e.state === "failed") return Promise.resolve({ kind: "failed", error: e.error ?? "refused" });
    return new Promise((resolve) => {
      const list = this.waiters.get(id) ?? [];
      list.push(resolve);
      this.waiters.set(id, list);
    });
  }

  /** Every unsent entry, oldest first (sent ones leave the list). */
  all(): readonly OutboxEntry[] {
    return this.entries.filter((e) => e.state !== "sent");
  }

  /**
   * What the UI shows under a narrow's messages: entries of that conversation
   * still unsent after `showAfterMs`, and failed ones (with `error`).
   */
  visibleIn(narrow: Narrow): OutboxEntry[] {
    const now = this.clock.now();
    const show = this.opts.showAfterMs ?? 500;
    return this.all().filter((e) => (e.state === "failed" || now - e.createdAt >= show) && targetInNarrow(e.target, narrow));
  }

  /** Sends a failed entry again (after the user fixed what was wrong elsewhere, or just wants to). */
  retry(id: string): void {
    const e = this.entries.find((x) => x.id === id);
    if (!e || e.state !== "failed") return;
    e.state = "waiting";
    e.error = undefined;
    e.notBefore = undefined;
    this.changedAndSaved();
    this.pump();
  }

  /** Removes a failed or waiting entry and gives its text back (for the compose box). Entries in flight cannot be taken back. */
  discard(id: string): string | undefined {
    const e = this.entries.find((x) => x.id === id);
    if (!e || (e.state !== "failed" && e.state !== "waiting")) return undefined;
    this.entries = this.entries.filter((x) => x !== e);
    this.resolve(e, { kind: "failed", error: "discarded" });
    this.changedAndSaved();
    return e.content;
  }

  /** Writes pending changes and stops timers (the entries stay on disk for the next run). */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const u of this.unsubscribe) u();
    for (const t of this.timers) t.cancel();
    this.timers.clear();
    this.wakeTimer?.cancel();
    await this.edits.dispose();
    await this.pumper.current;
    await this.file.save();
    await this.file.idle();
  }

  /** Resolves when nothing is being done now (tests; shutdown). */
  async idle(): Promise<void> {
    await this.pumper.idle();
    await this.edits.idle();
    await this.file.idle();
  }

  /** Resolves after the file reflects every change so far. */
  async flush(): Promise<void> {
    await this.file.save();
  }

  get path(): string {
    return this.file.path;
  }

  // --- the state machine ---------------------------------------------------

  private pump(): void {
    this.pumper.wake();
  }

  /** Moves the head of the line as far as it can go now. */
  private async step(): Promise<void> {
    for (let guard = 0; guard < 10_000 && !this.disposed; guard++) {
      const head = this.entries.find((e) => e.state === "waiting" || e.state === "unknown" || e.state === "sending");
      if (!head || head.state === "sending") return;
      if (this.machine.state.kind !== "live" || !this.machine.store) return;
      const now = this.clock.now();
      const due =
        head.state === "unknown" ? Math.max(head.notBefore ?? 0, (head.attemptEndedAt ?? 0) + (this.opts.settleMs ?? 3000)) : head.notBefore ?? 0;
      if (due > now) {
        this.wakeAt(due);
        return;
      }
      if (head.state === "unknown") await this.verify(head, this.machine.store);
      else await this.attempt(head, this.machine.store);
    }
  }

  private async attempt(e: OutboxEntry, store: Store): Promise<void> {
    e.state = "sending";
    e.attempts++;
    e.queueId = store.queueId ?? undefined;
    e.error = undefined;
    // On disk before the request: a crash from here on is checked, never blindly resent.
    this.changed();
    await this.file.save();
    const common = { content: e.content, queue_id: e.queueId, local_id: e.id };
    const p: SendMessageParams =
      e.target.type === "stream"
        ? { type: "stream", to: e.target.channelId, topic: e.target.topic, ...common }
        : { type: "direct", to: e.target.userIds, ...common };
    try {
      const res = await this.api.sendMessage(this.machine.client, p, AbortSignal.timeout(this.opts.sendTimeoutMs ?? 30_000));
      this.markSent(e, res.id);
    } catch (err) {
      if (e.state !== "sending") return; // settled meanwhile by its echo
      e.attemptEndedAt = this.clock.now();
      e.error = describeError(err);
      if (err instanceof ApiError && err.isRateLimit) {
        e.state = "waiting";
        e.notBefore = this.clock.now() + Math.max(1000, (err.retryAfter ?? 1) * 1000);
      } else if (err instanceof ApiError && err.status < 500) {
        e.state = "failed"; // refused: the server said why, and will say so again
        this.resolve(e, { kind: "failed", error: e.error });
      } else if (neverSent(err)) {
        e.state = "waiting";
        e.notBefore = this.clock.now() + this.backoff(e.attempts);
      } else {
        e.state = "unknown"; // timeout, reset, 5xx, unreadable answer: it may have landed
      }
      this.changedAndSaved();
    }
  }

  /** Settles an entry of unknown fate from the conversation's recent history. */
  private async verify(e: OutboxEntry, store: Store): Promise<void> {
    const narrow = targetNarrow(e.target);
    try {
      const res = await this.api.getMessages(this.machine.client, {
        anchor: "newest",
        num_before: 100,
        num_after: 0,
        narrow: [...narrowToApi(narrow, store.realm.featureLevel), { operator: "sender", operand: store.selfId }],
        apply_markdown: false,
        allow_empty_topic_name: true,
      });
      if (e.state !== "unknown") return; // the echo came first
      const match = res.messages.find((m) => this.matches(e, m, store.selfId));
      if (match) this.markSent(e, match.id);
      else {
        e.state = "waiting"; // it never landed: now it is safe to send
        e.notBefore = undefined;
        this.changedAndSaved();
      }
    } catch (err) {
      if (e.state !== "unknown") return;
      e.error = describeError(err);
      e.notBefore = this.clock.now() + this.backoff(e.attempts);
      this.changed();
    }
  }

  private matches(e: OutboxEntry, m: Message, selfId: number): boolean {
    return !this.claimed.includes(m.id) && isCopyOf(e, m, selfId);
  }

  private onEvents(events: ServerEvent[], store: Store): void {
    let changed = false;
    for (const ev of events) {
      if (ev.type !== "message" || ev.message.sender_id !== store.selfId) continue;
      const byEcho = ev.local_message_id !== undefined ? this.entries.find((x) => x.id === ev.local_message_id) : undefined;
      // Without an echo (the queue it would have come to is gone) content decides, for entries of unknown fate only.
      const e =
        byEcho ??
        this.entries.find((x) => x.state === "unknown" && this.matches(x, ev.message, store.selfId));
      if (e && e.state !== "sent") {
        this.markSent(e, ev.message.id, false);
        changed = true;
      }
    }
    if (changed) this.changedAndSaved();
  }

  private markSent(e: OutboxEntry, messageId: number, save = true): void {
    e.state = "sent";
    e.messageId = messageId;
    e.error = undefined;
    if (!this.claimed.includes(messageId)) this.claimed.push(messageId);
    this.entries = this.entries.filter((x) => x !== e);
    this.resolve(e, { kind: "sent", messageId });
    if (save) this.changedAndSaved();
    this.pump();
  }

  private resolve(e: OutboxEntry, o: Outcome): void {
    if (o.kind === "sent") this.outcomes.set(e.id, o);
    const list = this.waiters.get(e.id);
    this.waiters.delete(e.id);
    for (const fn of list ?? []) fn(o);
  }

  private backoff(attempts: number): number {
    const b = this.opts.retry ?? { baseMs: 1000, maxMs: 30_000 };
    return Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, Math.min(20, attempts - 1)));
  }

  private wakeAt(at: number): void {
    this.wakeTimer?.cancel();
    this.wakeTimer = this.clock.setTimeout(() => {
      this.wakeTimer = undefined;
      this.pump();
    }, at - this.clock.now());
  }

  private later(ms: number, fn: () => void): void {
    const t = this.clock.setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }

  private changedAndSaved(): void {
    this.changed();
    void this.file.save();
  }
}
