/**
 * What the views ask of the network as they show things: load a narrow,
 * fetch older and newer messages, topics, and mark what was seen read.
 * Results land in the store; failures are recorded on the list. What the
 * user does on purpose goes through src/sync/actions; sending, through the
 * outbox.
 */
import { describeError, NetworkError, ServerError } from "../api/errors.js";
import { checkMessagesMatchNarrow, getMessages, updateMessageFlags } from "../api/routes/messages.js";
import { getTopics } from "../api/routes/topics.js";
import { narrowAnchorId, narrowToApi, type Narrow } from "../model/narrow.js";
import { opensAtFirstUnread } from "../model/read-policy.js";
import type { Store } from "../model/store.js";
import type { UpdateMachine } from "./update-machine.js";

export const BATCH = 100;
/** Seen messages are sent together this long after the first of them. */
const READ_BATCH_MS = 300;
/** A batch of reads the network lost is sent again, this many times at most, waiting longer each time. */
const READ_RETRIES = 5;
const READ_RETRY_MS = 2_000;

export class Commands {
  private readonly pendingRead = new Set<number>();
  private checking = false;
  private readTimer: NodeJS.Timeout | undefined;
  private readFailures = 0;

  constructor(private readonly machine: UpdateMachine) {}

  private get store(): Store | undefined {
    return this.machine.store;
  }

  /** Loads a narrow around its first unread message or its newest, as the view opens (see read-policy.ts). No-op while a fetch is running. */
  async loadNarrow(narrow: Narrow): Promise<void> {
    const store = this.store;
    if (!store) return;
    store.showNarrow(narrow);
    const list = store.messages.ensureList(narrow);
    // A list the model could not keep exact (a message it never had moved in, say) is fetched again.
    if (list.status === "fetching" || (list.ids.length > 0 && !list.stale)) return;
    await this.fetch(store, narrow, "around");
  }

  /** Asks the server whether new messages belong in loaded search narrows (only it can tell). */
  async checkNarrowMatches(): Promise<void> {
    const store = this.store;
    if (!store || this.checking) return;
    const pending = store.pendingServerChecks();
    if (pending.length === 0) return;
    this.checking = true;
    try {
      for (const p of pending) {
        const res = await checkMessagesMatchNarrow(this.machine.client, {
          msg_ids: p.ids,
          narrow: narrowToApi(p.narrow, store.realm.featureLevel),
        }).catch(() => undefined);
        if (!res || this.store !== store) continue;
        for (const id of p.ids) store.confirmNarrowMatch(p.narrowKey, id, String(id) in res.messages);
      }
    } finally {
      this.checking = false;
    }
  }

  async fetchOlder(narrow: Narrow): Promise<void> {
    const store = this.store;
    const list = store?.messages.list(narrow);
    if (!store || !list || list.status === "fetching" || list.foundOldest) return;
    await this.fetch(store, narrow, "older");
  }

  async fetchNewer(narrow: Narrow): Promise<void> {
    const store = this.store;
    const list = store?.messages.list(narrow);
    if (!store || !list || list.status === "fetching" || list.foundNewest) return;
    await this.fetch(store, narrow, "newer");
  }

  private async fetch(store: Store, narrow: Narrow, direction: "around" | "older" | "newer"): Promise<void> {
    const list = store.messages.ensureList(narrow);
    const generation = list.generation;
    store.setListStatus(narrow, "fetching");
    const anchor =
      direction === "around"
        ? (narrowAnchorId(narrow) ?? (opensAtFirstUnread(narrow) ? ("first_unread" as const) : ("newest" as const)))
        : direction === "older"
          ? list.ids[0]
          : list.ids[list.ids.length - 1];
    try {
      const res = await getMessages(this.machine.client, {
        anchor: anchor ?? "newest",
        include_anchor: direction === "around",
        num_before: direction === "newer" ? 0 : direction === "around" ? BATCH / 2 : BATCH,
        num_after: direction === "older" ? 0 : direction === "around" ? BATCH / 2 : BATCH,
        narrow: narrowToApi(narrow, store.realm.featureLevel),
        apply_markdown: false,
        client_gravatar: true,
        allow_empty_topic_name: true,
      });
      // A rebuild or reset while we waited makes this answer stale.
      if (this.store !== store || store.messages.ensureList(narrow).generation !== generation) return;
      store.addFetched(narrow, res.messages, {
        foundOldest: res.found_oldest,
        foundNewest: res.found_newest,
        direction,
      });
    } catch (err) {
      if (this.store === store) store.setListStatus(narrow, "error", describeError(err));
    }
  }

  async fetchTopics(channelId: number): Promise<void> {
    const store = this.store;
    if (!store || store.topicsLoaded.has(channelId)) return;
    try {
      const res = await getTopics(this.machine.client, channelId, { allow_empty_topic_name: true });
      if (this.store === store) store.setTopics(channelId, res.topics);
    } catch {
      // The sidebar still shows topics known from unreads and loaded messages.
    }
  }

  /**
   * The topics of several channels (the sidebar filter searches topic names),
   * a few requests at a time so a large organization does not flood the
   * connection; channels already loaded are skipped.
   */
  async fetchTopicsOf(channelIds: number[], parallel = 4): Promise<void> {
    const store = this.store;
    if (!store) return;
    const queue = channelIds.filter((id) => !store.topicsLoaded.has(id));
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined && this.store === store; id = queue.shift()) await this.fetchTopics(id);
    };
    await Promise.all(Array.from({ length: Math.min(parallel, queue.length) }, worker));
  }

  /** Marks messages read, batched: seen messages go to the server together shortly after. */
  markRead(ids: number[]): void {
    const store = this.store;
    if (!store) return;
    let added = false;
    for (const id of ids) {
      if (store.unreads.has(id) && !this.pendingRead.has(id)) {
        this.pendingRead.add(id);
        added = true;
      }
    }
    if (!added || this.readTimer) return;
    this.readTimer = setTimeout(() => void this.flushRead(), READ_BATCH_MS);
  }

  /** Messages waiting to be sent as read. */
  get pendingReads(): number {
    return this.pendingRead.size;
  }

  async flushRead(): Promise<void> {
    clearTimeout(this.readTimer);
    this.readTimer = undefined;
    // Only what is still unread as the store knows it now: after a rebuild (or a read elsewhere,
    // a deletion) nothing the new state no longer holds unread is sent again.
    const store = this.store;
    const ids = [...this.pendingRead].filter((id) => store?.unreads.has(id));
    this.pendingRead.clear();
    if (ids.length === 0) return;
    try {
      await updateMessageFlags(this.machine.client, { messages: ids, op: "add", flag: "read" });
      this.readFailures = 0;
    } catch (err) {
      // Lost on the way (or the server briefly unavailable): sent again a few times. A refusal is final:
      // they stay unread, and reading them again later tries again.
      if ((err instanceof NetworkError || err instanceof ServerError) && this.readFailures < READ_RETRIES) {
        this.readFailures++;
        for (const id of ids) this.pendingRead.add(id);
        this.readTimer ??= setTimeout(() => void this.flushRead(), READ_RETRY_MS * this.readFailures);
      } else this.readFailures = 0;
    }
  }

  dispose(): void {
    clearTimeout(this.readTimer);
  }
}
