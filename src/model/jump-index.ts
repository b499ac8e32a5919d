/**
 * The jump finder: one list over views, channels, topics, people and
 * direct-message conversations, ranked for what was typed.
 *
 * Ranking: first the match class (exact, prefix, word start, substring,
 * fuzzy: fuzzy-match.ts); on the same class, views first, then what has
 * unread messages, then the most recent activity, then the tighter match,
 * then channels before topics before conversations before people,
 * subscribed channels and people who are not bots first, then the shorter
 * and alphabetically first name.
 *
 * The index is built once from the store and follows it: on each query it
 * reads what changed since the last one (the journals of users, channels
 * and recent conversations) instead of walking everything. A query that
 * extends the previous one (a key typed) only looks at what matched before.
 *
 * Typing `#` first keeps channels and topics, `@` people and conversations;
 * `channel>topic` matches both parts (a topic's channel before the `>`).
 */
import { fold, foldWithMap } from "../render/fold.js";
import { classify, isSubsequence, MATCH, matchPositions, prepareQuery, sourceRanges, type Match, type Query } from "../render/fuzzy-match.js";
import {
  channelItem, channelKey, conversationItem, DEFAULT_JUMP_VIEWS, KIND, rowFacts, unreadKeys, userItem, userKey, viewItem,
  type JumpItem, type JumpTarget, type JumpView,
} from "./jump-items.js";
import { dmConversationKey, topicConversationKey, type Conversation } from "./recent.js";
import type { Store } from "./store.js";
import { TopList, type Ranked } from "./top-list.js";

export { DEFAULT_JUMP_VIEWS, type JumpTarget, type JumpView } from "./jump-items.js";

export interface JumpResult {
  target: JumpTarget;
  label: string;
  /** Topics: their channel's name. */
  context?: string;
  /** Matched parts of `label` (and of `context` for `channel>topic` queries): [start, end) in UTF-16 units. */
  ranges: Array<[number, number]>;
  contextRanges: Array<[number, number]>;
  matchClass: number;
  unread: number;
  muted: boolean;
  followed: boolean;
  /** Newest message id of the conversation (or -1). */
  lastId: number;
}

interface ParsedQuery {
  raw: string;
  kinds: "all" | "places" | "people";
  /** Without `>`: matched against every name. */
  q: Query;
  /** With `>`: the channel part and the topic part. */
  channelPart?: Query;
}

function parse(raw: string): ParsedQuery {
  let text = fold(raw).trimStart();
  let kinds: ParsedQuery["kinds"] = "all";
  if (text.startsWith("#")) {
    kinds = "places";
    text = text.slice(1);
  } else if (text.startsWith("@")) {
    kinds = "people";
    text = text.slice(1);
  }
  const gt = text.indexOf(">");
  if (gt >= 0) return { raw, kinds: "places", q: prepareQuery(text.slice(gt + 1)), channelPart: prepareQuery(text.slice(0, gt)) };
  return { raw, kinds, q: prepareQuery(text) };
}

/** Whether every match of `next` is also a match of `prev` (so `prev`'s matches are enough to look at). */
function narrows(prev: ParsedQuery, next: ParsedQuery): boolean {
  if (prev.kinds !== next.kinds && prev.kinds !== "all") return false;
  if ((prev.channelPart === undefined) !== (next.channelPart === undefined)) return false;
  const extends_ = (a: Query, b: Query) => b.compact.startsWith(a.compact) && b.text.startsWith(a.text);
  if (prev.channelPart && next.channelPart && !(prev.channelPart.text === next.channelPart.text || (prev.q.text === "" && extends_(prev.channelPart, next.channelPart)))) return false;
  return extends_(prev.q, next.q);
}

export class JumpIndex {
  private items: JumpItem[] = [];
  private readonly byKey = new Map<string, number>();
  private unreadItems: number[] = [];
  private seenVersion = -1;
  private usersAt = 0;
  private channelsAt = 0;
  private recentAt = 0;
  private dead = 0;
  /** The previous query and the items it matched (indices). */
  private last: { query: ParsedQuery; matched: number[] } | undefined;
  private readonly match: Match = { cls: MATCH.none, quality: 0 };
  private readonly channelMatch: Match = { cls: MATCH.none, quality: 0 };

  constructor(
    private readonly store: Store,
    private readonly views: readonly JumpView[] = DEFAULT_JUMP_VIEWS,
  ) {
    this.rebuild();
  }

  /** How many entries are searchable. */
  get size(): number {
    return this.items.length - this.dead;
  }

  /** The best `limit` entries for what was typed; with nothing typed, conversations by last activity. */
  query(raw: string, limit = 50): JumpResult[] {
    this.refresh();
    const p = parse(raw);
    if (p.q.text === "" && p.channelPart === undefined) return this.recentFirst(p, limit);
    const candidates = this.last && narrows(this.last.query, p) ? this.last.matched : undefined;
    const matched: number[] = [];
    const top = new TopList(limit, (a, b) => this.compare(a, b));
    const scan = (i: number) => {
      const it = this.items[i] as JumpItem;
      if (!it.alive || !this.matches(it, p)) return;
      matched.push(i);
      top.offer(i, this.match.cls, this.match.quality);
    };
    if (candidates) for (const i of candidates) scan(i);
    else for (let i = 0; i < this.items.length; i++) scan(i);
    this.last = { query: p, matched };
    return top.sorted().map((e) => this.result(e.index, e.cls, p));
  }

  /** Reads what changed in the store since the last look. */
  refresh(): void {
    const s = this.store;
    if (s.version === this.seenVersion) return;
    this.seenVersion = s.version;
    const users = s.people.changes.since(this.usersAt);
    const channels = s.channelsModel.changes.since(this.channelsAt);
    const conversations = s.recent.changes.since(this.recentAt);
    if (!users || !channels || !conversations) {
      this.rebuild();
      return;
    }
    let structural = false;
    for (const id of new Set(users)) structural = this.put(userKey(id), userItem(s, id)) || structural;
    if (users.length) structural = this.relabelDms(new Set(users)) || structural;
    for (const id of new Set(channels)) structural = this.put(channelKey(id), channelItem(s, id)) || structural;
    for (const c of new Set(conversations)) structural = this.putConversation(c) || structural;
    this.usersAt = s.people.changes.position;
    this.channelsAt = s.channelsModel.changes.position;
    this.recentAt = s.recent.changes.position;
    this.markUnread();
    if (structural) this.last = undefined;
    if (this.dead > 1000 && this.dead > this.items.length / 2) this.rebuild();
  }

  private rebuild(): void {
    const s = this.store;
    this.items = [];
    this.byKey.clear();
    this.dead = 0;
    this.last = undefined;
    this.usersAt = s.people.changes.position;
    this.channelsAt = s.channelsModel.changes.position;
    this.recentAt = s.recent.changes.position;
    for (const v of this.views) this.add(viewItem(v));
    const cm = s.channelsModel;
    for (const id of new Set([...cm.subscribed.keys(), ...cm.unsubscribed.keys(), ...cm.neverSubscribed.keys()])) {
      const it = channelItem(s, id);
      if (it) this.add(it);
    }
    for (const u of s.users.values()) {
      const it = userItem(s, u.user_id);
      if (it) this.add(it);
    }
    for (const c of s.recent.all()) this.putConversation(c);
    this.seenVersion = s.version;
    this.markUnread();
  }

  private add(it: JumpItem): number {
    const i = this.items.length;
    this.items.push(it);
    this.byKey.set(it.key, i);
    return i;
  }

  /** Adds, replaces or (with undefined) retires an entry; returns whether the set of names changed. */
  private put(key: string, it: JumpItem | undefined): boolean {
    const i = this.byKey.get(key);
    const old = i === undefined ? undefined : this.items[i];
    if (!it) {
      if (!old || !old.alive) return false;
      old.alive = false;
      this.dead++;
      return true;
    }
    if (old && old.alive && old.norm === it.norm) {
      old.label = it.label;
      old.primary = it.primary;
      old.target = it.target;
      return false;
    }
    if (old) {
      if (!old.alive) this.dead--;
      it.recency = Math.max(it.recency, old.recency);
      this.items[i as number] = it;
    } else this.add(it);
    return true;
  }

  private putConversation(c: Conversation): boolean {
    if (c.removed) return this.put(c.key, undefined);
    const it = conversationItem(this.store, c);
    const structural = this.put(c.key, it);
    const i = this.byKey.get(c.key) as number;
    const current = this.items[i] as JumpItem;
    current.recency = c.maxId;
    if (c.kind === "topic") {
      current.channelItem = this.byKey.get(channelKey(c.channelId)) ?? -1;
      const ch = this.items[current.channelItem];
      if (ch && ch.recency < c.maxId) ch.recency = c.maxId;
    } else if (c.userIds.length === 1) {
      const person = this.items[this.byKey.get(userKey(c.userIds[0] as number)) ?? -1];
      if (person && person.recency < c.maxId) person.recency = c.maxId;
    }
    return structural;
  }

  /** Conversations named after renamed people. */
  private relabelDms(userIds: Set<number>): boolean {
    let changed = false;
    for (const c of this.store.recent.all()) {
      if (c.kind === "dm" && c.userIds.some((id) => userIds.has(id))) changed = this.putConversation(c) || changed;
    }
    return changed;
  }

  private markUnread(): void {
    for (const i of this.unreadItems) (this.items[i] as JumpItem).unread = 0;
    this.unreadItems = [];
    for (const key of unreadKeys(this.store, topicConversationKey, dmConversationKey)) {
      const i = this.byKey.get(key);
      if (i === undefined) continue;
      (this.items[i] as JumpItem).unread = 1;
      this.unreadItems.push(i);
    }
  }

  private matches(it: JumpItem, p: ParsedQuery): boolean {
    if (p.kinds === "places" && it.kind !== KIND.channel && it.kind !== KIND.topic) return false;
    if (p.kinds === "people" && it.kind !== KIND.user && it.kind !== KIND.dm) return false;
    if (p.channelPart) return this.matchesQualified(it, p.channelPart, p.q);
    if (!isSubsequence(it.norm, p.q.compact)) return false;
    return classify(it.norm, p.q, this.match);
  }

  /** `channel>topic`: a topic whose channel matches the first part and whose name matches the second; a channel alone while the second is empty. */
  private matchesQualified(it: JumpItem, channelPart: Query, topicPart: Query): boolean {
    const channel = it.kind === KIND.channel ? it : this.items[it.channelItem];
    if (!channel || (it.kind === KIND.channel && topicPart.text !== "")) return false;
    if (!isSubsequence(channel.norm, channelPart.compact) || !classify(channel.norm, channelPart, this.channelMatch)) return false;
    if (it.kind === KIND.channel) {
      this.match.cls = this.channelMatch.cls;
      this.match.quality = this.channelMatch.quality;
      return true;
    }
    if (!isSubsequence(it.norm, topicPart.compact) || !classify(it.norm, topicPart, this.match)) return false;
    this.match.cls = Math.min(this.match.cls, this.channelMatch.cls) as Match["cls"];
    this.match.quality += this.channelMatch.quality;
    return true;
  }

  /** Positive when entry `a` ranks above `b` (see the header). */
  private compare(a: Ranked, b: Ranked): number {
    if (a.cls !== b.cls) return a.cls - b.cls;
    const x = this.items[a.index] as JumpItem;
    const y = this.items[b.index] as JumpItem;
    if ((x.kind === KIND.view) !== (y.kind === KIND.view)) return x.kind === KIND.view ? 1 : -1;
    if (x.unread !== y.unread) return x.unread - y.unread;
    if (x.recency !== y.recency) return x.recency - y.recency;
    if (a.quality !== b.quality) return b.quality - a.quality;
    if (x.kind !== y.kind) return y.kind - x.kind;
    if (x.primary !== y.primary) return x.primary - y.primary;
    if (x.label.length !== y.label.length) return y.label.length - x.label.length;
    return x.label < y.label ? 1 : x.label > y.label ? -1 : 0;
  }

  /** Nothing typed: the conversations with the latest activity (subscribed channels only), newest first. */
  private recentFirst(p: ParsedQuery, limit: number): JumpResult[] {
    const out: JumpResult[] = [];
    for (const c of this.store.recent.newestFirst()) {
      if (out.length >= limit) break;
      if (c.kind === "topic" ? p.kinds === "people" || !this.store.isSubscribed(c.channelId) : p.kinds === "places") continue;
      const i = this.byKey.get(c.key);
      if (i !== undefined) out.push(this.result(i, MATCH.prefix, p));
    }
    return out;
  }

  private result(i: number, cls: number, p: ParsedQuery): JumpResult {
    const it = this.items[i] as JumpItem;
    const channel = it.kind === KIND.topic ? this.items[it.channelItem] : undefined;
    const ranges = (label: string, q: Query) => {
      const f = foldWithMap(label);
      return sourceRanges(f.source, matchPositions(f.text, q, classifyOnly(f.text, q)));
    };
    const qualified = p.channelPart !== undefined;
    const own = qualified && it.kind === KIND.channel ? (p.channelPart as Query) : p.q;
    return {
      target: it.target,
      label: it.label,
      ...(channel ? { context: channel.label } : {}),
      ranges: own.text === "" ? [] : ranges(it.label, own),
      contextRanges: qualified && channel ? ranges(channel.label, p.channelPart as Query) : [],
      matchClass: cls,
      lastId: it.recency,
      ...rowFacts(this.store, it.target),
    };
  }
}

function classifyOnly(t: string, q: Query): Match["cls"] {
  const m: Match = { cls: MATCH.none, quality: 0 };
  return classify(t, q, m) ? m.cls : MATCH.none;
}
