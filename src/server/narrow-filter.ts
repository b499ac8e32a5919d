// Compiling parsed narrow terms into a message predicate for one viewing
// user, plus the facts the message routes need: whether the narrow may reach
// beyond the user's personal history (a channel's shared history), and the
// search queries to highlight.

import { badNarrow, badRequest } from "./errors.js";
import { operandText, type NarrowTerm } from "./narrow-parse.js";
import { parseSearch, searchMatcher, type SearchQuery } from "./narrow-search.js";
import { ROLE, type Channel, type Flag, type Message, type State, type User } from "./state.js";

export interface CompiledNarrow {
  matches(message: Message): boolean;
  /** The narrow reads a channel's shared history, not only the user's messages. */
  includeHistory: boolean;
  /** Non-negated search queries (for match_content / match_subject). */
  searches: SearchQuery[];
  /**
   * Left out when looking for the first unread message, as the public service does: muted
   * topics, and (in narrows not limited to one channel) muted channels but for their
   * unmuted or followed topics.
   */
  mutedForFirstUnread(message: Message): boolean;
}

type Predicate = (m: Message) => boolean;

export const RESOLVED_TOPIC_PREFIX = "✔ ";
/** `is:` operands that do not depend on the user's message flags. */
const HISTORY_SAFE_IS = new Set(["resolved", "followed", "muted"]);

export function resolveChannelOperand(state: State, operand: NarrowTerm["operand"]): Channel | undefined {
  if (typeof operand === "number") return state.channels.get(operand);
  if (typeof operand !== "string") return undefined;
  return state.channelByName(operand) ?? (/^\d+$/.test(operand.trim()) ? state.channels.get(Number(operand)) : undefined);
}

function resolveUser(state: State, operand: string | number): User | undefined {
  if (typeof operand === "number") return state.users.get(operand);
  return state.userByEmail(operand) ?? (/^\d+$/.test(operand.trim()) ? state.users.get(Number(operand)) : undefined);
}

function describe(operand: NarrowTerm["operand"]): string {
  return Array.isArray(operand) ? `[${operand.join(", ")}]` : String(operand);
}

/** Whether the user may read the channel's history without having received it. */
export function canReadChannelHistory(state: State, user: User, channel: Channel): boolean {
  const subscribed = state.subscription(user.id, channel.id) !== undefined;
  if (channel.inviteOnly) return channel.historyPublicToSubscribers && subscribed;
  return user.role !== ROLE.guest || channel.isWebPublic || subscribed;
}

/** All participants of the `dm` conversation named by the operand (viewer included), sorted. */
function dmParticipants(state: State, viewer: User, operand: NarrowTerm["operand"]): number[] {
  const items: (string | number)[] = Array.isArray(operand)
    ? operand
    : typeof operand === "number"
      ? [operand]
      : operand.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) throw badNarrow(`unknown user in ${describe(operand)}`);
  const ids = items.map((item) => {
    const user = resolveUser(state, item);
    if (!user) throw badNarrow(`unknown user in ${describe(operand)}`);
    return user.id;
  });
  return [...new Set([...ids, viewer.id])].sort((a, b) => a - b);
}

function sameIds(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** `with`: replaces the conversation terms by the target message's conversation, or is dropped. */
function expandWith(terms: NarrowTerm[], state: State, viewer: User): NarrowTerm[] {
  const withTerms = terms.filter((t) => t.operator === "with");
  if (withTerms.length === 0) return terms;
  if (withTerms.length > 1) throw badRequest("Duplicate 'with' operators.");
  const text = operandText(withTerms[0]!).trim();
  if (!/^\d+$/.test(text)) throw badNarrow("Invalid 'with' operator");
  const rest = terms.filter((t) => t.operator !== "with");
  const target = state.messagesById.get(Number(text));
  if (!target || !state.canReadMessage(viewer, target)) return rest;
  const others = rest.filter((t) => !["channel", "topic", "dm"].includes(t.operator));
  if (target.type === "stream" && target.channelId !== null) {
    return [
      { operator: "channel", operand: target.channelId, negated: false },
      { operator: "topic", operand: target.topic, negated: false },
      ...others,
    ];
  }
  const dmOthers = target.dmUserIds.filter((id) => id !== viewer.id);
  return [{ operator: "dm", operand: dmOthers.length > 0 ? dmOthers : [viewer.id], negated: false }, ...others];
}

/** The viewer's topic visibility policies, keyed by channel and lower-cased topic. */
function topicPolicies(state: State, viewer: User): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of state.userTopics) {
    if (t.userId === viewer.id) out.set(`${t.channelId}\u0000${t.topic.toLowerCase()}`, t.visibilityPolicy);
  }
  return out;
}

export function compileNarrow(rawTerms: NarrowTerm[], state: State, viewer: User): CompiledNarrow {
  const terms = expandWith(rawTerms, state, viewer);
  const preds: Predicate[] = [];
  const searches: SearchQuery[] = [];
  let includeHistory = false;
  let policies: Map<string, number> | undefined;
  const ctx: TermContext = {
    state,
    viewer,
    policy: (m) => {
      policies ??= topicPolicies(state, viewer);
      return m.channelId === null ? 0 : (policies.get(`${m.channelId}\u0000${m.topic.toLowerCase()}`) ?? 0);
    },
  };
  for (const term of terms) {
    if (term.operator === "channel" && !term.negated) {
      const channel = resolveChannelOperand(state, term.operand);
      includeHistory = channel !== undefined && canReadChannelHistory(state, viewer, channel);
    } else if (term.operator === "channels" && !term.negated && term.operand === "public") {
      includeHistory = viewer.role !== ROLE.guest;
    } else if (term.operator === "channels" && !term.negated && term.operand === "web-public") {
      // Anyone may read web-public channels' history, guests and spectators included.
      includeHistory = true;
    }
    if (term.operator === "search" && !term.negated) searches.push(parseSearch(operandText(term)));
    const pred = compileTerm(term, ctx);
    if (pred) preds.push(pred);
  }
  if (terms.some((t) => t.operator === "is" && !HISTORY_SAFE_IS.has(String(t.operand)))) includeHistory = false;
  const oneChannel = terms.some((t) => t.operator === "channel" && !t.negated);
  const mutedForFirstUnread = (m: Message) => (oneChannel ? m.channelId !== null && ctx.policy(m) === 1 : isMuted(ctx, m));
  return { matches: (m) => preds.every((p) => p(m)), includeHistory, searches, mutedForFirstUnread };
}

interface TermContext {
  state: State;
  viewer: User;
  /** The viewer's visibility policy for the message's topic (0 for none). */
  policy(m: Message): number;
}

/** The predicate of one term, negation applied; null when the term does not filter. */
function compileTerm(term: NarrowTerm, ctx: TermContext): Predicate | null {
  if (term.operator === "search") {
    const matcher = searchMatcher(parseSearch(operandText(term)));
    if (!term.negated) return (m) => matcher.all(m.topic, m.content);
    return (m) => !matcher.anyPhrase(m.topic, m.content) && !matcher.allWords(m.topic, m.content);
  }
  const pred = positiveTerm(term, ctx);
  if (!pred) return null;
  return term.negated ? (m) => !pred(m) : pred;
}

function positiveTerm(term: NarrowTerm, ctx: TermContext): Predicate | null {
  const { state, viewer } = ctx;
  switch (term.operator) {
    case "channel": {
      const channel = resolveChannelOperand(state, term.operand);
      if (!channel) throw badNarrow(`unknown channel ${describe(term.operand)}`);
      return (m) => m.channelId === channel.id;
    }
    case "channels": {
      const operand = operandText(term);
      if (operand === "public") return (m) => m.channelId !== null && state.channels.get(m.channelId)?.inviteOnly === false;
      if (operand === "web-public") return (m) => m.channelId !== null && state.channels.get(m.channelId)?.isWebPublic === true;
      throw badNarrow(`unknown channels operand ${operand}`);
    }
    case "topic": {
      let topic = operandText(term).trim().toLowerCase();
      if (topic === state.realm.emptyTopicDisplayName.toLowerCase() || topic === "(no topic)") topic = "";
      return (m) => m.type === "stream" && m.topic.toLowerCase() === topic;
    }
    case "dm": {
      const ids = dmParticipants(state, viewer, term.operand);
      return (m) => m.type === "private" && sameIds(m.dmUserIds, ids);
    }
    case "dm-including": {
      const user = resolveUser(state, term.operand as string | number);
      if (!user) throw badNarrow(`unknown user ${describe(term.operand)}`);
      if (user.id === viewer.id) return (m) => m.type === "private";
      return (m) => m.type === "private" && m.dmUserIds.includes(user.id);
    }
    case "group-pm-with": {
      const user = resolveUser(state, term.operand as string | number);
      if (!user) throw badNarrow(`unknown user ${describe(term.operand)}`);
      return (m) => m.type === "private" && m.dmUserIds.length > 2 && m.dmUserIds.includes(user.id) && m.dmUserIds.includes(viewer.id);
    }
    case "sender": {
      const operand = term.operand;
      const user = operand === "me" ? viewer : resolveUser(state, operand as string | number);
      if (!user) throw badNarrow(`unknown user ${describe(operand)}`);
      return (m) => m.senderId === user.id;
    }
    case "id": {
      const text = operandText(term).trim();
      if (!/^\d+$/.test(text)) throw badNarrow("Invalid message ID");
      const id = Number(text);
      return (m) => m.id === id;
    }
    case "near":
      return null; // positions a view; does not filter
    case "has":
      return compileHas(operandText(term));
    case "is":
      return compileIs(operandText(term), ctx);
    case "in": {
      const operand = operandText(term);
      if (operand === "all") return null;
      if (operand === "home") return (m) => !isMuted(ctx, m);
      throw badNarrow(`unknown 'in' operand ${operand}`);
    }
    default:
      throw badNarrow(`unknown operator ${term.operator}`);
  }
}

const LINK = /https?:\/\/[^\s)>\]]|\]\([^)\s]+\)|mailto:/i;
const IMAGE_URL = /(?:https?:\/\/|\/user_uploads\/)\S+?\.(?:png|jpe?g|gif|webp|bmp|svg)\b/i;

export function hasLink(content: string): boolean {
  return LINK.test(content) || content.includes("/user_uploads/");
}

function compileHas(what: string): Predicate {
  switch (what) {
    case "link":
      return (m) => hasLink(m.content);
    case "image":
      return (m) => /!\[[^\]]*\]\([^)]+\)/.test(m.content) || IMAGE_URL.test(m.content);
    case "attachment":
      return (m) => m.content.includes("/user_uploads/");
    case "reaction":
      return (m) => m.reactions.length > 0;
    default:
      throw badNarrow(`unknown 'has' operand ${what}`);
  }
}

const MENTION_FLAGS: Flag[] = ["mentioned", "wildcard_mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"];

function isMuted(ctx: TermContext, m: Message): boolean {
  if (m.channelId === null) return false;
  const policy = ctx.policy(m);
  if (policy === 1) return true;
  if (policy === 2 || policy === 3) return false;
  return ctx.state.subscription(ctx.viewer.id, m.channelId)?.isMuted === true;
}

function compileIs(what: string, ctx: TermContext): Predicate {
  const { state, viewer } = ctx;
  const flags = (m: Message) => state.flags(viewer.id, m.id);
  switch (what) {
    case "dm":
    case "private":
      return (m) => m.type === "private";
    case "unread":
      return (m) => {
        const f = flags(m);
        return f !== undefined && !f.has("read");
      };
    case "starred":
      return (m) => flags(m)?.has("starred") === true;
    case "mentioned":
      return (m) => {
        const f = flags(m);
        return f !== undefined && MENTION_FLAGS.some((x) => f.has(x));
      };
    case "alerted":
      return (m) => flags(m)?.has("has_alert_word") === true;
    case "resolved":
      return (m) => m.type === "stream" && m.topic.startsWith(RESOLVED_TOPIC_PREFIX);
    case "followed":
      return (m) => m.type === "stream" && ctx.policy(m) === 3;
    case "muted":
      return (m) => isMuted(ctx, m);
    default:
      throw badNarrow(`unknown 'is' operand ${what}`);
  }
}
