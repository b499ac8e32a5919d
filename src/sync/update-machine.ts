/**
 * The update machine: register → build a store → long-poll → apply → repeat.
 *
 * Failures, and what each one does:
 * - network failure, 5xx, 429: full-jitter backoff (100 ms doubling to 10 s,
 *   reset after a success; at least `retry-after` on a 429); the next poll
 *   says `dont_block` so recovery is quick; the UI hears "reconnecting" only
 *   after several consecutive failures.
 * - BAD_EVENT_QUEUE_ID (the server forgot our queue): register at once, build
 *   a new store, refetch every narrow the old store had loaded around the
 *   view's anchor, then swap the new store in.
 * - a malformed response or an event the model cannot apply: the store is in
 *   doubt, so rebuild the same way, after a separate backoff capped at 60 s.
 * - an answer the client abandoned (too large once decompressed, or trickling in too slowly to
 *   be of use): handled as the failure it is classified as (malformed, or network), but the UI
 *   hears of it at once, since waiting will not make it go away.
 * - credentials refused (401 / INVALID_API_KEY…): state `failed`, stop.
 * - before the first store, the `startGuard` option (if given) decides first:
 *   end the start with its line, or wait with a note, or the above.
 * - what a newer server sends that this client does not know (event types and ops, new
 *   fields and enum values): not a failure. Unknown events are ignored and their kinds
 *   kept in `unfamiliar`, so the UI can say so once. A body that fails the same way every
 *   time still waits the slower backoff before each rebuild: never a tight loop.
 * - a spectator (no account) has no event queue: its store is rebuilt every
 *   `spectatorRefreshMs` instead (the loaded narrows refetched), so new messages show.
 * `nudge()` (a key press after a long idle, SIGCONT) cuts a pending backoff short.
 */
import { ApiError, SchemaError, describeError, isAbandonedAnswer } from "../api/errors.js";
import { turns, type ApiClient } from "../api/http.js";
import { getMessages } from "../api/routes/messages.js";
import { deleteQueue, getEvents, register, type EventsResult } from "../api/routes/events.js";
import { MalformedEventError, type ServerEvent } from "../api/schemas/events.js";
import type { User } from "../api/schemas/common.js";
import { narrowKey, type Narrow } from "../model/narrow.js";
import { SPECTATOR_SELF_ID, Store } from "../model/store.js";
import { realClock, type Clock } from "./clock.js";
import { FirstPoll, registerLooks } from "./first-poll.js";
import { addRefetched, NarrowsRefetch } from "./refetch.js";
import { UnfamiliarKinds } from "./unfamiliar-kinds.js";
import { registerParamsFor } from "./register-params.js";
import { RetryPauses } from "./retry-pauses.js";
import { summarizeRegister, type RegisterSummary } from "./register-summary.js";
import { fillUsers, storeFromRegister, userListApi } from "./user-list.js";
import type { ConnectionState, StoreInfo, StoreReason, SyncApi, UpdateMachineOptions } from "./update-machine-types.js";

export type { ConnectionState, StartVerdict, StoreInfo, StoreReason, SyncApi, UpdateMachineOptions } from "./update-machine-types.js";

const defaultApi: SyncApi = { register, getEvents, deleteQueue, getMessages, ...userListApi };

type Listener<A extends unknown[]> = (...args: A) => void;

/** An event the model could not apply: handled like a malformed response. */
export class UnappliableEventError extends Error {
  constructor(override readonly cause: unknown) {
    super(`an event could not be applied: ${describeError(cause)}`);
    this.name = "UnappliableEventError";
  }
}

class Stopped extends Error {}

/** The longest stretch of applying events before the event loop is let round (keys, frames). */
const SLICE_MS = 12;

export class UpdateMachine {
  store: Store | undefined;
  state: ConnectionState = { kind: "connecting" };
  /** The register response the current store was built from, without the sections the store holds. */
  lastRegister: RegisterSummary | undefined;
  /** Highest message id known (register's max_message_id, message events): a floor for "sent after now". */
  maxMessageId = 0;
  /** Consecutive failed polls/registers (0 while live). */
  failures = 0;
  private readonly unfamiliarKinds = new UnfamiliarKinds();
  readonly clock: Clock;
  private readonly api: SyncApi;
  private readonly abort = new AbortController();
  private readonly pauses: RetryPauses;
  private readonly storeListeners = new Set<Listener<[Store, StoreInfo]>>();
  private readonly stateListeners = new Set<Listener<[ConnectionState]>>();
  private readonly eventListeners = new Set<Listener<[ServerEvent[], Store]>>();
  private readonly anchors = new Map<string, number>();
  private loop: Promise<void> | undefined;
  private readonly firstPoll: FirstPoll;
  private rebuilds = 0;
  /** Malformed answers since the last poll that applied: a rebuild that did not help is no recovery. */
  private malformedInARow = 0;

  constructor(
    readonly client: ApiClient,
    private readonly opts: UpdateMachineOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.api = { ...defaultApi, ...opts.api };
    this.pauses = new RetryPauses({ clock: this.clock, stop: this.abort.signal, backoff: opts.backoff, rebuildBackoff: opts.rebuildBackoff, random: opts.random });
    this.firstPoll = new FirstPoll({ client, getEvents: this.api.getEvents, signal: this.abort.signal, checkStopped: () => this.checkStopped(), pollMarginMs: opts.pollMarginMs });
  }

  /** Called with each new store (the first, and after every rebuild). */
  onStore(fn: Listener<[Store, StoreInfo]>): () => void {
    this.storeListeners.add(fn);
    return () => this.storeListeners.delete(fn);
  }

  onState(fn: Listener<[ConnectionState]>): () => void {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  /** Called with every batch of events after the store applied it (the outbox watches for its echoes here). */
  onEvents(fn: Listener<[ServerEvent[], Store]>): () => void {
    this.eventListeners.add(fn);
    return () => this.eventListeners.delete(fn);
  }

  /** Called when the server sends a kind of event this client does not know (each new kind once). */
  onUnfamiliar(fn: (kinds: ReadonlySet<string>) => void): () => void {
    return this.unfamiliarKinds.on(fn);
  }

  /** The kinds of event the server sent that this client does not know (`type` or `type/op`, bounded). */
  get unfamiliar(): ReadonlySet<string> {
    return this.unfamiliarKinds.kinds;
  }

  /**
   * The view's place in a narrow (the selected message, or the one at the
   * top of the pane). A rebuild refetches the narrow around it, so the view
   * finds the same message in the new store.
   */
  setAnchor(narrow: Narrow, messageId: number | undefined): void {
    if (messageId === undefined) this.anchors.delete(narrowKey(narrow));
    else this.anchors.set(narrowKey(narrow), messageId);
  }

  anchorOf(narrow: Narrow): number | undefined {
    return this.anchors.get(narrowKey(narrow));
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** Registers and builds the first store; then keeps it current in the background. */
  async start(): Promise<Store> {
    const store = await this.rebuild("start");
    this.loop = this.pollLoop(this.firstPoll.take()).catch(() => undefined);
    const users = this.fillUsers(store);
    if (this.opts.usersAfterStart) users.catch(() => undefined);
    else await users;
    return store;
  }

  /** The user list into `store`, when its register carried none (see user-list.ts). */
  private fillUsers(store: Store): Promise<void> {
    return fillUsers(store, {
      client: this.client,
      api: this.api,
      clock: this.clock,
      signal: this.abort.signal,
      random: this.opts.random,
      wanted: () => this.store === store || this.store === undefined,
      beforeParse: this.opts.beforeUserList,
    });
  }

  /** Cuts a pending backoff short (a key press after a long idle, SIGCONT). */
  nudge(): void {
    this.pauses.nudge();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.abort.abort(new Stopped("stopped"));
    this.setState({ kind: "stopped" });
    await this.loop;
    const queueId = this.store?.queueId;
    if (queueId) await this.api.deleteQueue(this.client, queueId).catch(() => undefined);
  }

  private setState(s: ConnectionState): void {
    if (this.state.kind === "stopped" && s.kind !== "stopped") return;
    this.state = s;
    for (const fn of this.stateListeners) fn(s);
  }

  /**
   * Registers (retrying transient failures), builds a new store, refetches the
   * old store's loaded narrows into it, and swaps it in. Throws when stopped or
   * when the failure is final (the state then says why).
   */
  private async rebuild(reason: StoreReason): Promise<Store> {
    const previous = this.store;
    for (let attempt = 0; ; attempt++) {
      let queueId: string | null = null;
      let refetching: NarrowsRefetch | undefined;
      try {
        // The user's own record goes beside the register, which carries no users (user-list.ts).
        // On a start from the local cache, whose store names the user, the cached record stands
        // in when that request fails. (Asked for all the same, it also opens the connection the
        // refetch of the cached narrows takes while the first poll holds the register's: two
        // round trips of set-up fewer before the live frame.) A spectator is nobody: it asks
        // for no user, and its store has an id no user has, so that nothing is theirs.
        const spectator = this.client.spectator;
        const known = reason === "start" ? previous?.users.get(previous.selfId) : undefined;
        let self: Promise<User> | undefined;
        const askSelf = () =>
          (self ??= this.api.getOwnUser(this.client, this.abort.signal).catch((err: unknown) => {
            if (known) return known;
            throw err;
          }));
        if (!spectator) askSelf().catch(() => undefined);
        // The old store's narrows (the local cache's, on a start) are fetched again once the new
        // queue exists, which holds what happens from then on: at start as soon as the register's
        // answer names the server's level (a look at its bytes, beside the first poll), so that the
        // fetch's round trip runs while the answer arrives, is parsed and checked and the new store
        // is built. A fetch made for another feature level than the parsed answer's is made again.
        refetching = previous && new NarrowsRefetch(this.client, this.api.getMessages, previous, this.anchors, this.abort.signal);
        // At start, the first poll leaves as soon as the answer names its queue (first-poll.ts).
        const looks = reason === "start" ? registerLooks(this.firstPoll, refetching, () => this.client.idleConnection()) : undefined;
        const reg = await this.api.register(this.client, registerParamsFor(this.client), this.abort.signal, looks);
        queueId = reg.queue_id;
        // Sent before the parse or the check when the register could; otherwise now.
        if (looks) await this.firstPoll.send(reg);
        refetching?.at(reg.svc_feature_level);
        const store = spectator ? new Store(reg, { selfIdHint: SPECTATOR_SELF_ID }) : await storeFromRegister(reg, askSelf, reason === "start" ? previous : undefined);
        // A rebuild swaps in a store as whole as the one it replaces.
        if (reason !== "start") await fillUsers(store, { client: this.client, api: this.api, clock: this.clock, signal: this.abort.signal, random: this.opts.random, wanted: () => true });
        if (refetching) addRefetched(store, await refetching.fetched());
        this.checkStopped();
        const maxId = (reg as { max_message_id?: unknown }).max_message_id;
        if (typeof maxId === "number") this.maxMessageId = Math.max(this.maxMessageId, maxId);
        // The old queue still exists after a malformed answer: free it.
        if (reason === "malformed" && previous?.queueId) void this.api.deleteQueue(this.client, previous.queueId).catch(() => undefined);
        this.store = store;
        this.lastRegister = summarizeRegister(reg);
        this.rebuilds++;
        this.failures = 0;
        for (const fn of this.storeListeners) fn(store, { reason, register: reg, previous });
        this.setState({ kind: "live" });
        // The unread index, once the frame this store draws is out (queued after the screen's update).
        setImmediate(() => store.unreads.settle());
        return store;
      } catch (err) {
        this.checkStopped();
        // A queue registered for a rebuild that failed half-way is of no use, nor a poll of it
        // (sent before the answer's check refused it, the queue is known only from the poll).
        queueId ??= this.firstPoll.queueId ?? null;
        refetching?.stop();
        this.firstPoll.drop();
        if (queueId) void this.api.deleteQueue(this.client, queueId).catch(() => undefined);
        const verdict = reason === "start" && !previous ? await this.opts.startGuard?.(err, attempt) : undefined;
        this.checkStopped();
        if (verdict && "fail" in verdict) {
          this.setState({ kind: "failed", error: verdict.fail });
          throw err;
        }
        if (verdict) {
          this.failures++;
          this.setState({ kind: "reconnecting", attempt: this.failures, error: verdict.note });
          await this.pauses.wait(verdict.retryInMs);
          continue;
        }
        if (err instanceof ApiError && !this.transientApiError(err)) {
          this.setState({
            kind: "failed",
            error: err.isAuthFailure ? `The server refused our credentials: ${describeError(err)}` : describeError(err),
          });
          throw err;
        }
        this.failures++;
        if (err instanceof SchemaError) await this.pauseMalformed(err);
        else await this.pause(attempt, err);
      }
    }
  }

  private transientApiError(err: ApiError): boolean {
    return !err.isAuthFailure && (err.isRateLimit || err.status >= 500);
  }

  private checkStopped(): void {
    if (this.stopped) throw new Stopped("stopped");
  }

  /** The transient-failure backoff; says "reconnecting" after `quietFailures` in a row. */
  private async pause(attempt: number, err: unknown): Promise<void> {
    this.tellFailures(err);
    await this.pauses.transient(attempt, err);
  }

  /** The separate, slower backoff before rebuilding after a malformed answer. */
  private async pauseMalformed(err: unknown): Promise<void> {
    this.tellFailures(err);
    await this.pauses.malformed();
  }

  /** The UI hears "reconnecting" after `quietFailures` failures in a row, or at once of an abandoned answer. */
  private tellFailures(err: unknown): void {
    if (this.failures >= (this.opts.quietFailures ?? 3) || isAbandonedAnswer(err)) {
      this.setState({ kind: "reconnecting", attempt: this.failures, error: describeError(err), ...(isAbandonedAnswer(err) && { abandoned: true }) });
    }
  }

  /** How many stores were built (1 after start). */
  get storeGeneration(): number {
    return this.rebuilds;
  }

  /** Applies events to the store and tells the listeners. */
  private applyRun(store: Store, events: ServerEvent[]): void {
    try {
      store.applyAll(events);
    } catch (err) {
      throw new UnappliableEventError(err);
    }
    for (const e of events) {
      if (e.type === "message" && e.message.id > this.maxMessageId) this.maxMessageId = e.message.id;
    }
    for (const fn of this.eventListeners) fn(events, store);
    this.unfamiliarKinds.note(events);
  }

  /** Polls the store's queue and applies what comes; `first` is a poll of it already under way. */
  private async pollLoop(first?: Promise<EventsResult>): Promise<void> {
    let attempt = 0;
    while (!this.stopped) {
      const store = this.store;
      if (!store?.queueId) {
        // No queue (a spectator is sent no events): register again now and then, or at a key after a long idle.
        if (!this.client.spectator) return;
        await this.pauses.wait(this.opts.spectatorRefreshMs ?? 60_000);
        try {
          await this.rebuild("refresh");
        } catch {
          return; // stopped, or a final failure (the state says which)
        }
        continue;
      }
      try {
        const early = first;
        first = undefined;
        const { events, rest } = await (early ?? this.api.getEvents(
          this.client,
          { queue_id: store.queueId, last_event_id: store.lastEventId, dont_block: attempt > 0 ? true : undefined },
          {
            timeoutMs: store.realm.longpollTimeoutSecs * 1000 + (this.opts.pollMarginMs ?? 15_000),
            signal: this.abort.signal,
          },
        ));
        if (this.store !== store) continue;
        this.applyRun(store, events);
        // A large answer's later events: a run at a time, with the event loop let round every
        // SLICE_MS, so that keys are drawn while a batch of 100,000 events goes in.
        if (rest) {
          let sliceStart = performance.now();
          for (const run of rest) {
            if (this.stopped || this.store !== store) break;
            this.applyRun(store, run);
            if (performance.now() - sliceStart >= SLICE_MS) {
              await turns(1);
              sliceStart = performance.now();
            }
          }
        }
        attempt = 0;
        this.failures = 0;
        this.malformedInARow = 0;
        if (this.state.kind !== "live") this.setState({ kind: "live" });
      } catch (err) {
        if (this.stopped) return;
        try {
          if (err instanceof ApiError && err.code === "BAD_EVENT_QUEUE_ID") {
            await this.rebuild("queue-lost");
            attempt = 0;
          } else if (err instanceof ApiError && err.isAuthFailure) {
            this.setState({ kind: "failed", error: `The server refused our credentials: ${describeError(err)}` });
            return;
          } else if (err instanceof SchemaError || err instanceof MalformedEventError || err instanceof UnappliableEventError) {
            // The same bad answer after a rebuild: the failures go on (the UI hears of them), and so does the backoff.
            this.failures = ++this.malformedInARow;
            await this.pauseMalformed(err);
            await this.rebuild("malformed");
            attempt = 0;
          } else {
            this.failures++;
            await this.pause(attempt++, err);
          }
        } catch {
          return; // stopped, or a final failure (the state says which)
        }
      }
    }
  }
}
