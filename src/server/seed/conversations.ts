// Turns written conversation scripts into messages: schedules every line in
// time (deterministically), sorts all lines by time, numbers them, and stores
// them with reactions, edits and read/unread flags.

import { UNICODE_EMOJI } from "../emoji.js";
import { MarkdownRenderer } from "../markdown-html.js";
import { deliverMessage } from "../messaging.js";
import type { Reaction, State, User } from "../state.js";
import { Prng } from "./prng.js";
import type { ChannelScript, DmScript, Line, LineExtra } from "./script-types.js";

export interface ConversationOptions {
  /** UTC milliseconds of day 0, 00:00. */
  day0: number;
  /** No message later than this (UTC seconds). */
  end: number;
  /** Messages at or after this time (UTC seconds) stay unread for their recipients. */
  unreadFrom: number;
  firstMessageId: number;
  seed: number;
  /** Users by their short script name. */
  people: Map<string, User>;
  /** Who stars the lines marked `starred`. */
  starredBy: number;
}

interface Scheduled {
  timestamp: number;
  order: number;
  line: Line;
  channel?: string;
  topic?: string;
  between?: readonly string[];
}

function parseAt(day0: number, at: string): number {
  const m = /^(\d+) (\d{2}):(\d{2})$/.exec(at);
  if (!m) throw new Error(`bad script time '${at}'`);
  return Math.floor(day0 / 1000) + Number(m[1]) * 86400 + Number(m[2]) * 3600 + Number(m[3]) * 60;
}

function schedule(
  opts: ConversationOptions,
  scriptIndex: number,
  at: string,
  lines: readonly Line[],
  where: Pick<Scheduled, "channel" | "topic" | "between">,
): Scheduled[] {
  const prng = new Prng(opts.seed * 7919 + scriptIndex);
  let t = parseAt(opts.day0, at);
  return lines.map((line, i) => {
    const extra = line[2];
    if (i > 0) {
      if (extra?.at) t = parseAt(opts.day0, extra.at);
      else t += (extra?.gap ?? prng.int(1, 9)) * 60;
    }
    t += i === 0 && !extra?.at ? 0 : prng.int(0, 50);
    return { ...where, timestamp: Math.min(t, opts.end), order: scriptIndex * 1000 + i, line };
  });
}

function person(opts: ConversationOptions, name: string): User {
  const user = opts.people.get(name);
  if (!user) throw new Error(`unknown person '${name}' in demo script`);
  return user;
}

function reactions(state: State, opts: ConversationOptions, spec: string | undefined): Reaction[] {
  if (!spec) return [];
  const out: Reaction[] = [];
  for (const part of spec.split(";")) {
    const [emojiName = "", who = ""] = part.split(":");
    const custom = [...state.realmEmoji.values()].find((e) => e.name === emojiName);
    const code = UNICODE_EMOJI[emojiName];
    if (!custom && !code) throw new Error(`unknown emoji '${emojiName}' in demo script`);
    for (const name of who.split(",")) {
      out.push({
        emojiName,
        emojiCode: custom ? custom.id : code!,
        reactionType: custom ? "realm_emoji" : "unicode_emoji",
        userId: person(opts, name).id,
      });
    }
  }
  return out;
}

export function addConversations(
  state: State,
  opts: ConversationOptions,
  channelScripts: readonly ChannelScript[],
  dmScripts: readonly DmScript[],
): void {
  const markdown = new MarkdownRenderer(state);
  const all: Scheduled[] = [];
  channelScripts.forEach((s, i) => all.push(...schedule(opts, i, s.at, s.lines, { channel: s.channel, topic: s.topic })));
  dmScripts.forEach((s, i) =>
    all.push(...schedule(opts, channelScripts.length + i, s.at, s.lines, { between: s.between })),
  );
  all.sort((a, b) => a.timestamp - b.timestamp || a.order - b.order);

  let id = opts.firstMessageId;
  for (const item of all) {
    const [who, text] = item.line;
    const extra: LineExtra = item.line[2] ?? {};
    const sender = person(opts, who);
    const base = { sender, content: text, client: "website", timestamp: item.timestamp, id: id++ };
    let message;
    if (item.channel !== undefined) {
      const channel = state.channelByName(item.channel);
      if (!channel) throw new Error(`unknown channel '${item.channel}' in demo script`);
      message = deliverMessage(state, { ...base, channel, topic: item.topic ?? "" });
    } else {
      const others = (item.between ?? []).map((n) => person(opts, n).id).filter((uid) => uid !== sender.id);
      message = deliverMessage(state, { ...base, to: others });
    }
    message.reactions = reactions(state, opts, extra.react);
    if (extra.edit !== undefined) {
      const editedAt = Math.min(message.timestamp + 240, opts.end);
      message.editHistory = [
        { user_id: sender.id, timestamp: editedAt, prev_content: extra.edit, prev_rendered_content: markdown.render(extra.edit) },
      ];
      message.lastEditTimestamp = editedAt;
    }
    for (const [userId, flags] of state.userMessages) {
      const f = flags.get(message.id);
      if (!f) continue;
      if (message.timestamp < opts.unreadFrom || userId === sender.id) f.add("read");
    }
    if (extra.starred) state.flags(opts.starredBy, message.id)?.add("starred");
  }
}
