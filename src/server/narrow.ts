// Narrows: parsing the wire forms ({operator, operand, negated} objects or
// [operator, operand] pairs) and compiling them into a message predicate for
// one viewing user.

import { badNarrow, badRequest } from "./errors.js";
import type { Channel, Message, State, User } from "./state.js";

export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated: boolean;
}

const OPERATOR_ALIASES: Record<string, string> = {
  stream: "channel",
  streams: "channels",
  subject: "topic",
  "pm-with": "dm",
  "group-pm-with": "dm-including",
};

const KNOWN = new Set([
  "channel", "channels", "topic", "dm", "dm-including", "is", "sender", "search", "id", "near", "with", "has",
]);

export function parseNarrow(raw: unknown, name = "narrow"): NarrowTerm[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw badRequest(`${name} is not a list`);
  return raw.map((item): NarrowTerm => {
    let operator: unknown;
    let operand: unknown;
    let negated: unknown = false;
    if (Array.isArray(item) && item.length === 2) {
      [operator, operand] = item as unknown[];
    } else if (item && typeof item === "object") {
      ({ operator, operand, negated = false } = item as Record<string, unknown>);
    } else {
      throw badRequest(`Invalid ${name}: elements must be objects or pairs`);
    }
    if (typeof operator !== "string") throw badRequest(`Invalid ${name}: operator must be a string`);
    const okOperand =
      typeof operand === "string" ||
      (typeof operand === "number" && Number.isInteger(operand)) ||
      (Array.isArray(operand) && operand.every((x) => Number.isInteger(x)));
    if (!okOperand) throw badRequest(`Invalid ${name}: bad operand for '${operator}'`);
    const op = OPERATOR_ALIASES[operator] ?? operator;
    if (!KNOWN.has(op)) throw badNarrow(`unknown operator '${operator}'`);
    return { operator: op, operand: operand as NarrowTerm["operand"], negated: negated === true };
  });
}

export interface CompiledNarrow {
  matches(message: Message): boolean;
  /** A positive channel/channels term: search the channel's history, not only the user's. */
  channelScoped: boolean;
  /** Search keywords (for match_content / match_subject). */
  searchWords: string[];
}

type Predicate = (m: Message) => boolean;

export function compileNarrow(terms: NarrowTerm[], state: State, viewer: User): CompiledNarrow {
  const preds: Predicate[] = [];
  let channelScoped = false;
  const searchWords: string[] = [];
  for (const term of terms) {
    const pred = compileTerm(term, state, viewer, searchWords);
    if (!pred) continue;
    if (!term.negated && (term.operator === "channel" || term.operator === "channels")) channelScoped = true;
    preds.push(term.negated ? (m) => !pred(m) : pred);
  }
  return { matches: (m) => preds.every((p) => p(m)), channelScoped, searchWords };
}

export function resolveChannelOperand(state: State, operand: NarrowTerm["operand"]): Channel | undefined {
  if (typeof operand === "number") return state.channels.get(operand);
  if (typeof operand !== "string") return undefined;
  return state.channelByName(operand) ?? (/^\d+$/.test(operand) ? state.channels.get(Number(operand)) : undefined);
}

function resolveUser(state: State, operand: string | number): User | undefined {
  if (typeof operand === "number") return state.users.get(operand);
  return state.userByEmail(operand) ?? (/^\d+$/.test(operand) ? state.users.get(Number(operand)) : undefined);
}

/** The participants (viewer included) named by a `dm` operand. */
function dmParticipants(state: State, viewer: User, operand: NarrowTerm["operand"]): number[] {
  let parts: (string | number)[];
  if (Array.isArray(operand)) parts = operand;
  else if (typeof operand === "number") parts = [operand];
  else parts = operand.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const ids = parts.map((p) => {
    const user = resolveUser(state, p);
    if (!user) throw badNarrow("unknown user in dm operand");
    return user.id;
  });
  return [...new Set([...ids, viewer.id])].sort((a, b) => a - b);
}

function sameIds(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function textOperand(term: NarrowTerm): string {
  if (typeof term.operand !== "string" && typeof term.operand !== "number") {
    throw badNarrow(`bad operand for '${term.operator}'`);
  }
  return String(term.operand);
}

function compileTerm(term: NarrowTerm, state: State, viewer: User, searchWords: string[]): Predicate | null {
  switch (term.operator) {
    case "channel": {
      const channel = resolveChannelOperand(state, term.operand);
      if (!channel) throw badNarrow("unknown channel");
      return (m) => m.channelId === channel.id;
    }
    case "channels": {
      if (textOperand(term) !== "public") throw badNarrow("unknown channels operand");
      return (m) => m.channelId !== null && state.channels.get(m.channelId)?.inviteOnly === false;
    }
    case "topic": {
      let topic = textOperand(term).toLowerCase();
      if (topic === state.realm.emptyTopicDisplayName.toLowerCase()) topic = "";
      return (m) => m.type === "stream" && m.topic.toLowerCase() === topic;
    }
    case "dm": {
      const ids = dmParticipants(state, viewer, term.operand);
      return (m) => m.type === "private" && sameIds(m.dmUserIds, ids);
    }
    case "dm-including": {
      const user = resolveUser(state, Array.isArray(term.operand) ? (term.operand[0] ?? -1) : term.operand);
      if (!user) throw badNarrow("unknown user");
      return (m) => m.type === "private" && m.dmUserIds.includes(user.id);
    }
    case "sender": {
      const operand = textOperand(term);
      const user = operand === "me" ? viewer : resolveUser(state, typeof term.operand === "number" ? term.operand : operand);
      if (!user) throw badNarrow("unknown user");
      return (m) => m.senderId === user.id;
    }
    case "id": {
      const id = Number(textOperand(term));
      if (!Number.isInteger(id)) throw badNarrow("invalid message ID");
      return (m) => m.id === id;
    }
    case "near":
      return null; // only positions the view; does not filter
    case "with": {
      const target = state.messagesById.get(Number(textOperand(term)));
      if (!target || !state.canReadMessage(viewer, target)) return () => false;
      if (target.type === "private") return (m) => m.type === "private" && sameIds(m.dmUserIds, target.dmUserIds);
      const topic = target.topic.toLowerCase();
      return (m) => m.channelId === target.channelId && m.topic.toLowerCase() === topic;
    }
    case "search": {
      const words = textOperand(term).toLowerCase().split(/\s+/).filter((w) => w !== "");
      if (!term.negated) searchWords.push(...words);
      return (m) => {
        const hay = `${m.topic}\n${m.content}`.toLowerCase();
        return words.every((w) => hay.includes(w));
      };
    }
    case "has":
      return compileHas(textOperand(term));
    case "is":
      return compileIs(textOperand(term), state, viewer);
    default:
      throw badNarrow(`unknown operator '${term.operator}'`);
  }
}

function compileHas(what: string): Predicate {
  switch (what) {
    case "link":
      return (m) => /https?:\/\/|\]\(/.test(m.content);
    case "image":
      return (m) => /!\[[^\]]*\]\(/.test(m.content) || /\.(png|jpe?g|gif|webp)\b/i.test(m.content);
    case "attachment":
      return (m) => m.content.includes("/user_uploads/");
    case "reaction":
      return (m) => m.reactions.length > 0;
    default:
      throw badNarrow("unknown 'has' operand");
  }
}

function compileIs(what: string, state: State, viewer: User): Predicate {
  const has = (flag: string) => (m: Message) => state.flags(viewer.id, m.id)?.has(flag as never) === true;
  switch (what) {
    case "dm":
    case "private":
      return (m) => m.type === "private";
    case "unread": {
      const read = has("read");
      return (m) => state.flags(viewer.id, m.id) !== undefined && !read(m);
    }
    case "starred":
      return has("starred");
    case "mentioned": {
      const direct = has("mentioned");
      const wildcard = has("wildcard_mentioned");
      return (m) => direct(m) || wildcard(m);
    }
    case "alerted":
      return has("has_alert_word");
    case "resolved":
      return (m) => m.type === "stream" && m.topic.startsWith("✔ ");
    case "followed":
      return (m) => m.channelId !== null && state.userTopicPolicy(viewer.id, m.channelId, m.topic) === 3;
    case "muted":
      return (m) =>
        m.channelId !== null &&
        (state.subscription(viewer.id, m.channelId)?.isMuted === true ||
          state.userTopicPolicy(viewer.id, m.channelId, m.topic) === 1);
    default:
      throw badNarrow("unknown 'is' operand");
  }
}
