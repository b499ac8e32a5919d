/**
 * After a rebuild the new store must hold every narrow the old one had
 * loaded, fetched again around the same anchor, so the views keep their
 * place and no message is missing. The requests leave once the new queue
 * exists, while the new store is built, and what they bring is added to it
 * before it is swapped in; events that arrive meanwhile wait in the new queue
 * and are applied afterwards (the lists drop duplicates).
 */
import type { ApiClient } from "../api/http.js";
import type { GetMessagesParams } from "../api/routes/messages.js";
import type { GetMessagesResponse } from "../api/schemas/responses.js";
import { indexOfSorted } from "../model/messages.js";
import { narrowKey, narrowToApi, type Narrow } from "../model/narrow.js";
import type { Store } from "../model/store.js";

export type GetMessagesFn = (client: ApiClient, p: GetMessagesParams, signal?: AbortSignal) => Promise<GetMessagesResponse>;

/** Where a view is: the message it shows (selected or at the top of its window). */
export type Anchors = ReadonlyMap<string, number>;

const MAX_BATCH = 1000;
const MIN_SIDE = 50;
/** Batches of newer messages fetched to reach the newest again, at most. */
const MAX_NEWER_BATCHES = 10;

export interface LoadedNarrow {
  narrow: Narrow;
  anchor: number;
  before: number;
  after: number;
  foundNewest: boolean;
}

/** The narrows worth refetching, with their anchors and the extent loaded on each side. */
export function loadedNarrows(old: Store, anchors: Anchors): LoadedNarrow[] {
  const out: LoadedNarrow[] = [];
  for (const l of old.messages.lists.values()) {
    if (l.ids.length === 0) continue;
    const wanted = anchors.get(narrowKey(l.narrow));
    let at = wanted === undefined ? -1 : indexOfSorted(l.ids, wanted);
    if (at === -1 && wanted !== undefined) {
      // The anchor left the list: take the nearest loaded id.
      at = l.ids.findIndex((id) => id >= wanted);
      if (at === -1) at = l.ids.length - 1;
    }
    if (at === -1) at = l.foundNewest ? l.ids.length - 1 : Math.floor(l.ids.length / 2);
    out.push({
      narrow: l.narrow,
      anchor: l.ids[at] as number,
      before: at,
      after: l.ids.length - 1 - at,
      foundNewest: l.foundNewest,
    });
  }
  return out;
}

/** One narrow fetched again: its batches, in the order they came. */
export interface Refetched {
  narrow: Narrow;
  batches: Array<{ messages: GetMessagesResponse["messages"]; foundOldest: boolean; foundNewest: boolean; direction: "around" | "newer" }>;
}

/**
 * Fetches every loaded narrow of `old` again (the requests need the new queue to exist, not the
 * new store: a rebuild sends them while it builds the store). `featureLevel` is the server's,
 * from its register answer. Throws on the first failure (the caller retries the rebuild).
 */
export async function fetchNarrows(client: ApiClient, getMessages: GetMessagesFn, old: Store, anchors: Anchors, featureLevel: number, signal?: AbortSignal): Promise<Refetched[]> {
  const common = { apply_markdown: false, client_gravatar: true, allow_empty_topic_name: true } as const;
  const out: Refetched[] = [];
  for (const n of loadedNarrows(old, anchors)) {
    const api = narrowToApi(n.narrow, featureLevel);
    const res = await getMessages(
      client,
      {
        ...common,
        narrow: api,
        anchor: n.anchor,
        include_anchor: true,
        num_before: Math.min(MAX_BATCH, Math.max(MIN_SIDE, n.before + 10)),
        num_after: Math.min(MAX_BATCH, Math.max(MIN_SIDE, n.after + 10)),
      },
      signal,
    );
    const fetched: Refetched = { narrow: n.narrow, batches: [{ messages: res.messages, foundOldest: res.found_oldest, foundNewest: res.found_newest, direction: "around" }] };
    out.push(fetched);
    // A list that followed the newest messages must reach them again, or live messages would not be shown.
    let last = newestOf(res.messages, undefined);
    let reached = res.found_newest;
    for (let i = 0; n.foundNewest && !reached && i < MAX_NEWER_BATCHES; i++) {
      const more = await getMessages(
        client,
        { ...common, narrow: api, anchor: last ?? "newest", include_anchor: last === undefined, num_before: 0, num_after: MAX_BATCH },
        signal,
      );
      fetched.batches.push({ messages: more.messages, foundOldest: false, foundNewest: more.found_newest, direction: "newer" });
      last = newestOf(more.messages, last);
      reached = more.found_newest;
    }
  }
  return out;
}

function newestOf(messages: GetMessagesResponse["messages"], than: number | undefined): number | undefined {
  let newest = than;
  for (const m of messages) if (newest === undefined || m.id > newest) newest = m.id;
  return newest;
}

/** Puts what `fetchNarrows` fetched into `fresh`; returns how many narrows. */
export function addRefetched(fresh: Store, fetched: readonly Refetched[]): number {
  for (const f of fetched) for (const b of f.batches) fresh.addFetched(f.narrow, b.messages, { foundOldest: b.foundOldest, foundNewest: b.foundNewest, direction: b.direction });
  return fetched.length;
}

/**
 * One rebuild's fetch of the old store's narrows, made once the new queue exists and made again
 * when it was made for another feature level than the server's (a look at the register's bytes
 * may be contradicted by its parse): the earlier one is dropped.
 */
export class NarrowsRefetch {
  private current: { level: number; stop: AbortController; fetched: Promise<Refetched[]> } | undefined;

  constructor(
    private readonly client: ApiClient,
    private readonly getMessages: GetMessagesFn,
    private readonly old: Store,
    private readonly anchors: Anchors,
    private readonly signal: AbortSignal,
  ) {}

  /** Fetches in the terms of feature level `level`, unless that fetch is already out. */
  at(level: number): void {
    if (this.current?.level === level) return;
    this.current?.stop.abort();
    const stop = new AbortController();
    const fetched = fetchNarrows(this.client, this.getMessages, this.old, this.anchors, level, AbortSignal.any([this.signal, stop.signal]));
    fetched.catch(() => undefined); // its failure is met where it is awaited
    this.current = { level, stop, fetched };
  }

  /** What the last fetch brought (it throws what that fetch threw). */
  fetched(): Promise<Refetched[]> {
    if (!this.current) throw new Error("no narrows were fetched again");
    return this.current.fetched;
  }

  /** Drops the fetch (a rebuild that failed). */
  stop(): void {
    this.current?.stop.abort();
  }
}
