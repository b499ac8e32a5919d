/**
 * The update machine: register → build a store → long-poll → apply → repeat.
 * Network failures back off with jitter and say "reconnecting"; a lost queue
 * means register again and swap in a new store (views refetch from their
 * narrow, so nothing is missed); bad credentials stop the loop with a message.
 */
import { ApiError, NetworkError, describeError } from "../api/errors.js";
import { backoffDelay, sleep, type ApiClient } from "../api/http.js";
import { deleteQueue, getEvents, register, type ClientCapabilities } from "../api/routes/events.js";
import { MalformedEventError } from "../api/schemas/events.js";
import { Store } from "../model/store.js";

export type ConnectionState =
  | { kind: "connecting" }
  | { kind: "live" }
  | { kind: "reconnecting"; attempt: number; error: string }
  | { kind: "failed"; error: string } // not retried: credentials refused
  | { kind: "stopped" };

export const CLIENT_CAPABILITIES: ClientCapabilities = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  empty_topic_name: true,
  archived_channels: true,
};

export interface UpdateMachineOptions {
  /** Backoff bounds; tests shorten them. */
  backoff?: { baseMs: number; maxMs: number };
  /** Consecutive failures before the UI is told about them. */
  quietFailures?: number;
  random?: () => number;
}

type Listener<T> = (value: T) => void;

export class UpdateMachine {
  store: Store | undefined;
  state: ConnectionState = { kind: "connecting" };
  private readonly abort = new AbortController();
  private wake: AbortController | undefined;
  private readonly storeListeners = new Set<Listener<Store>>();
  private readonly stateListeners = new Set<Listener<ConnectionState>>();
  private readonly backoff: { baseMs: number; maxMs: number };
  private loop: Promise<void> | undefined;

  constructor(
    readonly client: ApiClient,
    private readonly opts: UpdateMachineOptions = {},
  ) {
    this.backoff = opts.backoff ?? { baseMs: 100, maxMs: 10_000 };
  }

  onStore(fn: Listener<Store>): () => void {
    this.storeListeners.add(fn);
    return () => this.storeListeners.delete(fn);
  }

  onState(fn: Listener<ConnectionState>): () => void {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  /** Registers and builds the first store; then keeps it current in the background. */
  async start(): Promise<Store> {
    const store = await this.registerWithRetry();
    this.loop = this.pollLoop().catch(() => undefined);
    return store;
  }

  /** Cuts a pending backoff short (a key press after a long idle, SIGCONT). */
  nudge(): void {
    this.wake?.abort();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.setState({ kind: "stopped" });
    await this.loop;
    const queueId = this.store?.queueId;
    if (queueId) await deleteQueue(this.client, queueId).catch(() => undefined);
  }

  private setState(s: ConnectionState): void {
    this.state = s;
    for (const fn of this.stateListeners) fn(s);
  }

  private async registerOnce(): Promise<Store> {
    const reg = await register(
      this.client,
      {
        apply_markdown: false,
        client_gravatar: true,
        include_subscribers: false,
        slim_presence: true,
        client_capabilities: CLIENT_CAPABILITIES,
      },
      this.abort.signal,
    );
    const store = new Store(reg);
    this.store = store;
    for (const fn of this.storeListeners) fn(store);
    this.setState({ kind: "live" });
    return store;
  }

  private async registerWithRetry(): Promise<Store> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.registerOnce();
      } catch (err) {
        if (this.abort.signal.aborted) throw err;
        if (!this.transient(err)) {
          this.setState({ kind: "failed", error: describeError(err) });
          throw err;
        }
        await this.pause(attempt, err);
      }
    }
  }

  private transient(err: unknown): boolean {
    if (err instanceof ApiError) return !err.isAuthFailure && (err.isRateLimit || err.status >= 500);
    return true; // network, 5xx, malformed responses: try again later
  }

  private async pause(attempt: number, err: unknown): Promise<void> {
    if (attempt + 1 >= (this.opts.quietFailures ?? 2)) {
      this.setState({ kind: "reconnecting", attempt: attempt + 1, error: describeError(err) });
    }
    let delay = backoffDelay(attempt, this.backoff, this.opts.random);
    if (err instanceof ApiError && err.retryAfter !== undefined) delay = Math.max(delay, err.retryAfter * 1000);
    if (err instanceof MalformedEventError) delay = Math.max(delay, Math.min(60_000, this.backoff.baseMs * 2 ** attempt));
    this.wake = new AbortController();
    try {
      await sleep(delay, AbortSignal.any([this.abort.signal, this.wake.signal]));
    } catch {
      if (this.abort.signal.aborted) throw new NetworkError("stopped", "aborted");
    }
  }

  private async pollLoop(): Promise<void> {
    let failures = 0;
    while (!this.abort.signal.aborted) {
      const store = this.store;
      if (!store?.queueId) return;
      try {
        const { events } = await getEvents(
          this.client,
          { queue_id: store.queueId, last_event_id: store.lastEventId, dont_block: failures > 0 ? true : undefined },
          { timeoutMs: (store.realm.longpollTimeoutSecs + 15) * 1000, signal: this.abort.signal },
        );
        store.applyAll(events);
        if (failures > 0 || this.state.kind !== "live") this.setState({ kind: "live" });
        failures = 0;
      } catch (err) {
        if (this.abort.signal.aborted) return;
        if (err instanceof ApiError && err.code === "BAD_EVENT_QUEUE_ID") {
          // The server forgot our queue: start over with a fresh store.
          try {
            await this.registerWithRetry();
          } catch {
            return;
          }
          failures = 0;
          continue;
        }
        if (err instanceof ApiError && err.isAuthFailure) {
          this.setState({ kind: "failed", error: `The server refused our credentials: ${describeError(err)}` });
          return;
        }
        if (err instanceof MalformedEventError) {
          // An event we cannot apply leaves the store in doubt: rebuild after a pause.
          await this.pause(failures++, err).catch(() => undefined);
          try {
            await this.registerWithRetry();
          } catch {
            return;
          }
          continue;
        }
        try {
          await this.pause(failures++, err);
        } catch {
          return;
        }
      }
    }
  }
}
