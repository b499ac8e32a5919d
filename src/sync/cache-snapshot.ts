/**
 * The cached state of one account, as plain data: taken from a store through
 * its public reading API, and turned back into a store (a register-shaped
 * record for the constructor, then the cached topics and messages added the
 * way fetched ones are). Bounded: the most recent messages of a few narrows,
 * and only the users those messages and the sidebar need.
 */
import * as z from "zod";
import { messageSchema, topicSchema, type Message, type Topic, type User } from "../api/schemas/common.js";
import { registerResponseSchema, relistLazyRecords, type RegisterResponse, type UnreadMsgs } from "../api/schemas/register.js";
import { unreadsByHand } from "../api/schemas/unreads-by-hand.js";
import { messageDmUsers, narrowKey, type Narrow } from "../model/narrow.js";
import { Store } from "../model/store.js";

/** The cache's format: a file of another version is ignored. */
export const CACHE_VERSION = 1;

export interface CacheLimits {
  /** Messages kept per narrow (the most recent ones loaded). */
  messagesPerNarrow: number;
  /** Narrows kept, those with the newest messages first. */
  narrows: number;
  /** DM conversations kept for the sidebar, most recent first. */
  dmConversations: number;
}

export const DEFAULT_LIMITS: CacheLimits = { messagesPerNarrow: 300, narrows: 12, dmConversations: 200 };

/** Register fields copied as they came: the organization's settings and limits (small values only). */
const COPIED_OBJECTS = ["user_settings"] as const;

export interface CachedList {
  narrow: Narrow;
  foundOldest: boolean;
  foundNewest: boolean;
  messages: Message[];
}

export interface CacheData {
  version: number;
  account: { site: string; email: string; userId: number };
  savedAt: number;
  maxMessageId: number;
  /** The narrow that was open (the next start opens it). */
  view?: Narrow;
  /** A register response for the store's constructor (its queue_id null: nothing to poll). */
  register: Record<string, unknown>;
  topics: Array<{ channelId: number; topics: Topic[] }>;
  lists: CachedList[];
}

/** Narrows worth keeping: not searches (their highlights and terms belong to one query). */
function cacheable(n: Narrow): boolean {
  return n.kind !== "search";
}

/** The base register fields (numbers, strings, booleans and a few settings records) of `reg`. */
export function registerBase(reg: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!reg) return out;
  for (const [k, v] of Object.entries(reg)) {
    if (v === null || ["string", "number", "boolean"].includes(typeof v)) out[k] = v;
  }
  for (const k of COPIED_OBJECTS) if (reg[k] && typeof reg[k] === "object") out[k] = reg[k];
  return out;
}

/** Takes the cacheable state of `store`. `base` holds the register's scalar fields (see registerBase). */
export function takeSnapshot(
  store: Store,
  o: { site: string; email: string; base: Record<string, unknown>; maxMessageId: number; now: number; view?: Narrow; limits?: CacheLimits },
): CacheData {
  const limits = o.limits ?? DEFAULT_LIMITS;
  const self = store.selfId;
  const userIds = new Set<number>([self]);

  // Lists: the narrows with the newest messages, each cut to its most recent messages.
  const lists: CachedList[] = [];
  const candidates = [...store.messages.lists.values()]
    .filter((l) => cacheable(l.narrow) && l.ids.length > 0)
    .sort((a, b) => (b.ids[b.ids.length - 1] as number) - (a.ids[a.ids.length - 1] as number))
    .slice(0, limits.narrows);
  for (const l of candidates) {
    const ids = l.ids.slice(-limits.messagesPerNarrow);
    const messages: Message[] = [];
    for (const id of ids) {
      const m = store.messages.byId.get(id);
      if (!m) continue;
      messages.push(m);
      userIds.add(m.sender_id);
      if (m.type === "private") for (const u of messageDmUsers(m)) userIds.add(u);
    }
    lists.push({ narrow: l.narrow, foundOldest: l.foundOldest && ids.length === l.ids.length, foundNewest: l.foundNewest, messages });
  }

  // Unreads, by bucket.
  const streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }> = [];
  for (const channelId of store.unreads.channelIds()) {
    for (const b of store.unreads.topicBuckets(channelId)) streams.push({ stream_id: channelId, topic: b.topic, unread_message_ids: [...b.ids] });
  }
  const pms: Array<{ other_user_id: number; unread_message_ids: number[] }> = [];
  const huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }> = [];
  for (const b of store.unreads.dmBuckets()) {
    for (const u of b.userIds) userIds.add(u);
    if (b.userIds.length === 1) pms.push({ other_user_id: b.userIds[0] as number, unread_message_ids: [...b.ids] });
    else huddles.push({ user_ids_string: [...new Set([...b.userIds, self])].sort((x, y) => x - y).join(","), unread_message_ids: [...b.ids] });
  }

  const recent = [...store.recentDms.values()].sort((a, b) => b.maxId - a.maxId).slice(0, limits.dmConversations);
  for (const c of recent) for (const u of c.userIds) userIds.add(u);

  const users: User[] = [];
  for (const id of userIds) {
    const u = store.users.get(id);
    if (u) users.push(u);
  }

  const register: Record<string, unknown> = {
    ...o.base,
    result: "success",
    msg: "",
    queue_id: null,
    last_event_id: -1,
    user_id: self,
    realm_name: store.realm.name,
    realm_users: users,
    subscriptions: [...store.channels.values()],
    channel_folders: [...store.folders.values()],
    unread_msgs: {
      count: store.unreads.size,
      streams,
      pms,
      huddles,
      mentions: [...store.unreads.mentions],
      old_unreads_missing: store.unreads.oldUnreadsMissing,
    },
    recent_private_conversations: recent.map((c) => ({ max_message_id: c.maxId, user_ids: c.userIds.filter((u) => u !== self) })),
    user_topics: [...store.topicsModel.policyNames.entries()].map(([k, w]) => ({
      stream_id: w.channelId,
      topic_name: w.topic,
      visibility_policy: store.userTopics.get(k) ?? 0,
    })),
    starred_messages: [...store.messages.starred],
    muted_users: [...store.mutedUsers].map((id) => ({ id })),
  };

  const topics = [...store.topicsLoaded].map((channelId) => ({
    channelId,
    topics: store.topicsOf(channelId).map((t) => ({ name: t.name, max_id: t.maxId })),
  }));

  return {
    version: CACHE_VERSION,
    account: { site: o.site, email: o.email, userId: self },
    savedAt: o.now,
    maxMessageId: o.maxMessageId,
    ...(o.view && cacheable(o.view) ? { view: o.view } : {}),
    register,
    topics,
    lists,
  };
}

const narrowSchema: z.ZodType<Narrow> = z.union([
  z.object({ kind: z.enum(["feed", "all-dms", "mentioned", "starred"]) }),
  z.object({ kind: z.literal("channel"), channelId: z.number().int() }),
  z.object({ kind: z.literal("topic"), channelId: z.number().int(), topic: z.string() }),
  z.object({ kind: z.literal("dm"), userIds: z.array(z.number().int()).min(1) }),
]) as z.ZodType<Narrow>;

const cacheSchema = z.lazy(() => z.object({
  version: z.number(),
  account: z.object({ site: z.string(), email: z.string(), userId: z.number().int() }),
  savedAt: z.number(),
  maxMessageId: z.number().int(),
  view: narrowSchema.optional(),
  register: z.record(z.string(), z.unknown()),
  topics: z.array(z.object({ channelId: z.number().int(), topics: z.array(topicSchema) })),
  lists: z.array(z.object({ narrow: narrowSchema, foundOldest: z.boolean(), foundNewest: z.boolean(), messages: z.array(messageSchema) })),
}));

/** Why a cache file was not used: said once in the status line. */
export class CacheRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "CacheRejected";
  }
}

/** The format's version and the account; the rest is not looked at. Throws CacheRejected. */
function checkFileOf(raw: unknown, account: { site: string; email: string }): CacheData {
  const version = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as { version?: unknown }).version : undefined;
  if (typeof version !== "number") throw new CacheRejected("not a termchat cache");
  if (version !== CACHE_VERSION) throw new CacheRejected(`written by another version of termchat (format ${version})`);
  const data = raw as CacheData;
  const owner = data.account as Partial<CacheData["account"]> | undefined;
  if (typeof owner?.site !== "string" || typeof owner.email !== "string" || typeof owner.userId !== "number") throw new CacheRejected("its contents are damaged");
  if (owner.site.replace(/\/+$/, "") !== account.site.replace(/\/+$/, "") || owner.email.toLowerCase() !== account.email.toLowerCase()) {
    throw new CacheRejected("it belongs to another account");
  }
  return data;
}

/**
 * Checks parsed JSON as the server's answers are checked: the format, the version and the
 * account, the messages and topics by their schemas, the register by its own (its unread ids by
 * hand, api/schemas/unreads-by-hand.ts). Returns the data in the shape those checks give, which
 * is the shape the store is built from (defaults filled in). Throws CacheRejected.
 */
export function checkCacheData(raw: unknown, account: { site: string; email: string }): CacheData {
  checkFileOf(raw, account);
  const parsed = cacheSchema.safeParse(raw);
  if (!parsed.success) throw new CacheRejected("its contents are damaged");
  const data = parsed.data as CacheData;
  const { unread_msgs: rawUnreads, ...rest } = data.register;
  let unreads: UnreadMsgs | undefined;
  try {
    unreads = unreadsByHand(rawUnreads);
  } catch {
    throw new CacheRejected("its contents are damaged");
  }
  const reg = registerResponseSchema.safeParse(rest);
  if (!reg.success) throw new CacheRejected("its contents are damaged");
  if (unreads) reg.data.unread_msgs = unreads;
  data.register = reg.data as Record<string, unknown>;
  return data;
}

/**
 * Data this very build checked (checkCacheData) and wrote, unchanged since (cache-file.ts
 * compares a digest of the file's text): only its version and account are looked at, as the
 * rest is what the same checks gave.
 */
export function trustedCacheData(raw: unknown, account: { site: string; email: string }): CacheData {
  const data = checkFileOf(raw, account);
  try {
    relistLazyRecords(data.register);
  } catch {
    throw new CacheRejected("its contents are damaged");
  }
  return data;
}

/** Builds a store from checked (or trusted) data; throws CacheRejected when the data does not make one. */
export function storeFromCache(data: CacheData): Store {
  if (data.register.user_id !== data.account.userId) throw new CacheRejected("it belongs to another account");
  let store: Store;
  try {
    store = new Store(data.register as unknown as RegisterResponse);
    for (const t of data.topics) store.setTopics(t.channelId, t.topics);
    for (const l of data.lists) {
      store.addFetched(l.narrow, l.messages, { foundOldest: l.foundOldest, foundNewest: l.foundNewest, direction: "around" });
    }
  } catch {
    throw new CacheRejected("its contents are damaged");
  }
  return store;
}

/** The narrows a cached store holds messages of (tests, and the status note). */
export function cachedNarrowKeys(data: CacheData): string[] {
  return data.lists.map((l) => narrowKey(l.narrow));
}
