/**
 * Compose autocomplete, pure: which token the cursor is completing
 * (`@user`, `@*group*`, `@_silent`, `#channel`, `#channel>topic`, `:emoji`),
 * the suggestions for it from the store, and the text after accepting one.
 * No React, no I/O: the hook asks for topics it lacks and re-runs.
 */
import { t } from "../render/glyphs.js";
import { topicKey } from "../model/narrow.js";
import { topicRows } from "../model/selectors.js";
import type { Store } from "../model/store.js";
import { searchEmoji } from "../render/emoji.js";

export type CompletionKind = "user" | "group" | "channel" | "topic" | "emoji";

export interface CompletionContext {
  kind: "mention" | "channel" | "topic" | "emoji";
  /** Where the replaced token starts (the trigger character). */
  start: number;
  /** What was typed after the trigger, lower case for matching. */
  query: string;
  /** The same, as typed. */
  typed: string;
  /** `@_`: a silent mention. */
  silent?: boolean;
  /** `@*`: groups only. */
  groupsOnly?: boolean;
  /** For topic completion: the channel named before `>`. */
  channelName?: string;
}

export interface Suggestion {
  kind: CompletionKind;
  /** What the list shows (unsanitized: the component sanitizes). */
  label: string;
  /** Secondary text (an email, a member count…). */
  detail?: string;
  /** The text put in place of the token. */
  insert: string;
  /** A row that says the list is still coming (the user list, fetched after the first screen): nothing to insert. */
  waiting?: boolean;
}

/** The one row people's suggestions are while the user list is still coming: a partial list would leave someone out. */
export const PEOPLE_LOADING: Suggestion = { kind: "user", label: "loading people…", insert: "", waiting: true };

const MAX_QUERY = 40;
const BEFORE_TRIGGER = /(^|[\s(\[{"'>])$/;

/** Whether the cursor sits inside a code block (an odd number of ``` fences before it). */
function insideCode(before: string): boolean {
  const fences = before.match(/^ {0,3}(`{3,}|~{3,})/gm);
  return (fences?.length ?? 0) % 2 === 1;
}

/** The token before the cursor that can be completed, if any. */
export function completionContext(text: string, cursor: number): CompletionContext | undefined {
  const before = text.slice(0, cursor);
  const line = before.slice(before.lastIndexOf("\n") + 1);
  if (insideCode(before)) return undefined;
  const lineStart = before.length - line.length;

  // #**channel**>topic (after a channel was completed) and #channel>topic.
  let m = /#\*\*([^*\n>]+)\*\*>([^*\n]*)$/.exec(line) ?? /#([^\s#*>][^#*>\n]*)>([^*\n]*)$/.exec(line);
  if (m && BEFORE_TRIGGER.test(line.slice(0, m.index)) && (m[2] ?? "").length <= MAX_QUERY) {
    return { kind: "topic", start: lineStart + m.index, query: (m[2] ?? "").toLowerCase(), typed: m[2] ?? "", channelName: m[1] ?? "" };
  }
  m = /#([^\s#*>][^#*>\n]*)?$/.exec(line);
  if (m && BEFORE_TRIGGER.test(line.slice(0, m.index)) && (m[1] ?? "").length <= MAX_QUERY) {
    return { kind: "channel", start: lineStart + m.index, query: (m[1] ?? "").toLowerCase(), typed: m[1] ?? "" };
  }
  m = /@(_)?(\*)?([^\s@*#:][^@*#:\n]*)?$/.exec(line);
  if (m && BEFORE_TRIGGER.test(line.slice(0, m.index)) && (m[3] ?? "").length <= MAX_QUERY) {
    return { kind: "mention", start: lineStart + m.index, query: (m[3] ?? "").toLowerCase(), typed: m[3] ?? "", silent: !!m[1], groupsOnly: !!m[2] };
  }
  m = /:([a-zA-Z0-9_+-]+)$/.exec(line);
  if (m && BEFORE_TRIGGER.test(line.slice(0, m.index)) && (m[1] ?? "").length <= MAX_QUERY) {
    return { kind: "emoji", start: lineStart + m.index, query: (m[1] ?? "").toLowerCase(), typed: m[1] ?? "" };
  }
  return undefined;
}

/** Matches a name when it, or one of its words, starts with the query. */
export function nameMatches(name: string, query: string): boolean {
  if (!query) return true;
  const n = name.toLowerCase();
  if (n.startsWith(query)) return true;
  return n.split(/[\s_\-.]+/).some((w) => w.startsWith(query));
}

const PRESENCE_RANK: Record<string, number> = { active: 0, idle: 1, offline: 2 };

function userSuggestions(store: Store, c: CompletionContext, limit: number, nowMs: number): Suggestion[] {
  if (!store.people.complete) return [PEOPLE_LOADING];
  const sameName = new Map<string, number>();
  for (const u of store.users.values()) {
    const k = u.full_name.toLowerCase();
    sameName.set(k, (sameName.get(k) ?? 0) + 1);
  }
  const rank = (id: number) => PRESENCE_RANK[store.presenceStatus(id, nowMs)] ?? 2;
  const byName = new Intl.Collator(undefined, { sensitivity: "base" });
  const matches = [...store.users.values()].filter(
    (u) => u.is_active !== false && (nameMatches(u.full_name, c.query) || u.email.toLowerCase().startsWith(c.query)),
  );
  matches.sort(
    (a, b) =>
      Number(a.user_id === store.selfId) - Number(b.user_id === store.selfId) ||
      Number(a.is_bot) - Number(b.is_bot) ||
      rank(a.user_id) - rank(b.user_id) ||
      byName.compare(a.full_name, b.full_name),
  );
  const at = c.silent ? "@_" : "@";
  return matches.slice(0, limit).map((u) => {
    const ambiguous = (sameName.get(u.full_name.toLowerCase()) ?? 0) > 1;
    return {
      kind: "user",
      label: u.full_name,
      detail: u.email,
      insert: `${at}**${u.full_name}${ambiguous ? `|${u.user_id}` : ""}**`,
    };
  });
}

const WILDCARDS = ["all", "everyone", "channel", "topic"];

function groupSuggestions(store: Store, c: CompletionContext, limit: number): Suggestion[] {
  const at = c.silent ? "@_" : "@";
  const out: Suggestion[] = [];
  const groups = [...store.people.groups.values()]
    .filter((g) => !g.is_system_group && !g.deactivated && nameMatches(g.name, c.query))
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const g of groups.slice(0, limit)) {
    out.push({ kind: "group", label: g.name, detail: t`group · ${store.people.groupMembers(g.id).size} members`, insert: `${at}*${g.name}*` });
  }
  if (!c.groupsOnly && !c.silent && c.query) {
    for (const w of WILDCARDS) if (w.startsWith(c.query)) out.push({ kind: "group", label: w, detail: "notify everyone here", insert: `@**${w}**` });
  }
  return out;
}

function channelSuggestions(store: Store, c: CompletionContext, limit: number): Suggestion[] {
  const seen = new Set<number>();
  const all = [
    ...store.channelsModel.subscribed.values(),
    ...store.channelsModel.unsubscribed.values(),
    ...store.channelsModel.neverSubscribed.values(),
  ].filter((ch) => !seen.has(ch.stream_id) && (seen.add(ch.stream_id), true));
  const matches = all.filter((ch) => nameMatches(ch.name, c.query));
  matches.sort(
    (a, b) =>
      Number(a.is_archived) - Number(b.is_archived) ||
      Number(!store.isSubscribed(a.stream_id)) - Number(!store.isSubscribed(b.stream_id)) ||
      Number(!a.name.toLowerCase().startsWith(c.query)) - Number(!b.name.toLowerCase().startsWith(c.query)) ||
      a.name.localeCompare(b.name),
  );
  return matches.slice(0, limit).map((ch) => ({
    kind: "channel",
    label: `#${ch.name}`,
    detail: store.isSubscribed(ch.stream_id) ? undefined : "not subscribed",
    insert: `#**${ch.name}**`,
  }));
}

/** The channel a `#name>` token names (exact name, case-insensitive). */
export function channelByName(store: Store, name: string): number | undefined {
  const n = name.trim().toLowerCase();
  for (const map of [store.channelsModel.subscribed, store.channelsModel.unsubscribed, store.channelsModel.neverSubscribed]) {
    for (const ch of map.values()) if (ch.name.toLowerCase() === n) return ch.stream_id;
  }
  return undefined;
}

function topicSuggestions(store: Store, c: CompletionContext, limit: number): Suggestion[] {
  const channelId = channelByName(store, c.channelName ?? "");
  if (channelId === undefined) return [];
  const name = store.channelName(channelId) ?? c.channelName ?? "";
  const rows = topicRows(store, channelId).filter((t) => topicKey(t.topic).startsWith(c.query) || nameMatches(t.displayName, c.query));
  const out: Suggestion[] = rows.slice(0, limit).map((t) => ({
    kind: "topic",
    label: t.displayName,
    detail: `#${name}`,
    insert: `#**${name}>${t.topic}**`,
  }));
  // A topic that does not exist yet can still be linked.
  if (c.query && !rows.some((t) => topicKey(t.topic) === c.query) && out.length < limit) {
    const typed = c.typed.trim();
    if (typed) out.push({ kind: "topic", label: typed, detail: "new topic", insert: `#**${name}>${typed}**` });
  }
  return out;
}

function emojiSuggestions(store: Store, c: CompletionContext, limit: number): Suggestion[] {
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  for (const e of store.personal.realmEmoji.values()) {
    if (e.deactivated || !e.name.toLowerCase().startsWith(c.query) || seen.has(e.name)) continue;
    seen.add(e.name);
    out.push({ kind: "emoji", label: `:${e.name}:`, detail: "custom", insert: `:${e.name}:` });
  }
  out.sort((a, b) => a.label.localeCompare(b.label));
  for (const e of searchEmoji(c.query, limit)) {
    if (seen.has(e.name)) continue;
    seen.add(e.name);
    out.push({ kind: "emoji", label: `${e.emoji} :${e.name}:`, insert: `:${e.name}:` });
  }
  return out.slice(0, limit);
}

/** Suggestions for a completion context, best first. */
export function suggestionsFor(store: Store, c: CompletionContext, limit = 8, nowMs = Date.now()): Suggestion[] {
  switch (c.kind) {
    case "mention":
      if (c.groupsOnly) return groupSuggestions(store, c, limit);
      return [...userSuggestions(store, c, limit, nowMs), ...groupSuggestions(store, c, limit)].slice(0, limit);
    case "channel":
      return channelSuggestions(store, c, limit);
    case "topic":
      return topicSuggestions(store, c, limit);
    case "emoji":
      return emojiSuggestions(store, c, limit);
  }
}

/** The channel whose topics a context needs (so the caller can fetch them), if any. */
export function channelNeeded(store: Store, c: CompletionContext): number | undefined {
  return c.kind === "topic" ? channelByName(store, c.channelName ?? "") : undefined;
}

/**
 * Replaces the token with the suggestion. A space follows, except after a
 * channel (so `>` can go on to its topics).
 */
export function applySuggestion(text: string, cursor: number, c: CompletionContext, s: Suggestion): { text: string; cursor: number } {
  if (s.waiting) return { text, cursor };
  const after = text.slice(cursor);
  const space = s.kind === "channel" || after.startsWith(" ") ? "" : " ";
  const insert = s.insert + space;
  return { text: text.slice(0, c.start) + insert + after, cursor: c.start + insert.length };
}

/** A stable identity for a token (to keep a dismissed list closed while the same token is edited). */
export function contextKey(c: CompletionContext): string {
  return `${c.kind}:${c.start}`;
}
