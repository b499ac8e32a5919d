// The `large` data set, for benchmarks: 20,000 users, 2,000 channels and
// 200,000 messages, with the demo's owner (same email, password and API key)
// subscribed to 300 channels and holding more unread messages than the
// register response reports (so its unread_msgs is capped).
//
// Generation is deterministic (one seeded PRNG, fixed clock) and compact:
// messages are plain records whose strings come from shared pools, and only
// the accounts handed out (the owner and the demo's named people) get a
// personal message history with flags; the other 19,992 users are senders
// and subscribers without one.

import { MarkdownRenderer } from "../markdown-html.js";
import { ROLE, State, type Channel, type Flag, type Message, type RoleNumber, type User } from "../state.js";
import { accountOf, addChannel, addUser, createSystemGroups, defaultUserSettings, subscribe, SUBSCRIPTION_COLORS } from "./common.js";
import type { SeedResult } from "./demo.js";
import { Prng } from "./prng.js";
import * as T from "./large-text.js";

export const LARGE = { users: 20_000, channels: 2_000, ownerChannels: 300, messages: 200_000 } as const;

const DOMAIN = "lighthouse.test";
const END = Date.UTC(2026, 10, 20, 17, 0) / 1000;
const START = END - 365 * 86400;
const FIRST_MESSAGE_ID = 1001;
/** Messages from this index on stay unread for the owner (about 60,000 of them). */
const OWNER_UNREAD_FROM = LARGE.messages / 2;
const OTHERS_UNREAD_FROM = Math.floor(LARGE.messages * 0.95);

const NAMED: [short: string, fullName: string, role: RoleNumber, timezone: string][] = [
  ["maya", "Maya Okafor", ROLE.owner, "Europe/London"],
  ["ben", "Ben Carter", ROLE.admin, "Europe/London"],
  ["priya", "Priya Raman", ROLE.moderator, "Europe/Berlin"],
  ["omar", "Omar Haddad", ROLE.member, "Europe/Berlin"],
  ["lena", "Lena Fischer", ROLE.member, "Europe/Berlin"],
  ["diego", "Diego Alvarez", ROLE.member, "America/New_York"],
  ["hana", "Hana Suzuki", ROLE.member, "Asia/Tokyo"],
  ["sam", "Sam Whitaker", ROLE.guest, "America/Chicago"],
];

const isoDate = (secs: number) => new Date(secs * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");

function generatedUserRole(i: number): { role: RoleNumber; bot: boolean } {
  if (i % 100 === 4) return { role: ROLE.member, bot: true };
  if (i % 1000 === 1) return { role: ROLE.admin, bot: false };
  if (i % 250 === 2) return { role: ROLE.moderator, bot: false };
  if (i % 50 === 3) return { role: ROLE.guest, bot: false };
  return { role: ROLE.member, bot: false };
}

function createUsers(state: State): User[] {
  const users: User[] = [];
  for (const [short, fullName, role, timezone] of NAMED) {
    users.push(addUser(state, { email: `${short}@${DOMAIN}`, fullName, role, timezone, dateJoined: isoDate(START - 400 * 86400) }));
  }
  const botOwner = users[1]!.id;
  for (let i = users.length; i < LARGE.users; i++) {
    const first = T.FIRST_NAMES[i % T.FIRST_NAMES.length]!;
    const last = T.LAST_NAMES[Math.floor(i / T.FIRST_NAMES.length) % T.LAST_NAMES.length]!;
    const { role, bot } = generatedUserRole(i);
    users.push(
      addUser(state, {
        email: `${first}.${last}.${i}@${DOMAIN}`.toLowerCase(),
        fullName: bot ? `${first} ${last} Bot` : `${first} ${last}`,
        role,
        timezone: T.TIMEZONES[i % T.TIMEZONES.length]!,
        dateJoined: isoDate(START - (i % 700) * 86400),
        ...(bot ? { bot: { type: 1, ownerId: botOwner } } : {}),
      }),
    );
  }
  for (const user of users) state.userSettings.set(user.id, defaultUserSettings(user.timezone));
  return users;
}

function channelName(i: number): string {
  if (i === 0) return "general";
  return `${T.CHANNEL_ADJECTIVES[i % T.CHANNEL_ADJECTIVES.length]}-${T.CHANNEL_NOUNS[Math.floor(i / T.CHANNEL_ADJECTIVES.length) % T.CHANNEL_NOUNS.length]}`;
}

/** Topics of channel `c`: 3 to 14 of them, from the shared pool (the first may be the empty topic). */
function topicCount(c: number): number {
  return 3 + (c % 12);
}
function topicOf(c: number, t: number): string {
  if (t === 0 && c % 5 === 0) return "";
  return T.TOPICS[(c * 7 + t) % T.TOPICS.length]!;
}

export function seedLarge(nowMs: number): SeedResult {
  const prng = new Prng(20_000_200);
  const state = new State({
    name: "Lighthouse Labs (large)",
    description: "A large organization for benchmarks: 20,000 people, 2,000 channels.",
    stringId: "lighthouse",
    dateCreated: START - 500 * 86400,
    emptyTopicDisplayName: "general chat",
    enableReadReceipts: true,
    enableSpectatorAccess: true,
    emailDomain: DOMAIN,
  });
  state.reserveIds("user", 11);
  state.reserveIds("message", FIRST_MESSAGE_ID);

  const users = createUsers(state);
  const owner = users[0]!;
  const groups = createSystemGroups(state, START - 500 * 86400);

  const folderIds = T.FOLDER_NAMES.map((name, order) => {
    const id = state.allocate("folder");
    state.folders.set(id, { id, name, description: `Channels of ${name}`, order, dateCreated: START - 400 * 86400, creatorId: owner.id, isArchived: name === "Archive" });
    return id;
  });

  const channels: Channel[] = [];
  for (let i = 0; i < LARGE.channels; i++) {
    const inviteOnly = i % 10 === 7;
    channels.push(
      addChannel(state, {
        name: channelName(i),
        description: T.CHANNEL_DESCRIPTIONS[i % T.CHANNEL_DESCRIPTIONS.length]!,
        dateCreated: START - (i % 300) * 86400,
        creatorId: owner.id,
        inviteOnly,
        isWebPublic: !inviteOnly && i % 50 === 3,
        historyPublicToSubscribers: true,
        isArchived: i >= LARGE.ownerChannels && i % 200 === 199,
        folderId: i === 0 ? null : (folderIds[i % 13] ?? null),
      }, groups),
    );
  }
  state.defaultChannelIds.push(channels[0]!.id);

  // Subscriptions. members[c] lists subscribers (to pick senders); tracked[c] the
  // subscribers who keep a personal history.
  const members: number[][] = channels.map(() => []);
  const tracked: number[][] = channels.map(() => []);
  const trackedIds = new Set(users.slice(0, NAMED.length).map((u) => u.id));
  const sub = (user: User, c: number, extra: Parameters<typeof subscribe>[4] = {}) => {
    subscribe(state, user.id, channels[c]!.id, SUBSCRIPTION_COLORS[(c * 5 + user.id) % SUBSCRIPTION_COLORS.length]!, extra);
    members[c]!.push(user.id);
    if (trackedIds.has(user.id)) tracked[c]!.push(user.id);
  };
  for (let c = 0; c < LARGE.ownerChannels; c++) sub(owner, c, { isMuted: c % 37 === 36, pinToTop: c > 0 && c <= 5 });
  users.slice(1, NAMED.length).forEach((user, j) => {
    for (let c = 0; c < LARGE.ownerChannels; c++) {
      if (c === 0 || (c + j) % 10 === 0) if (user.role !== ROLE.guest || (!channels[c]!.inviteOnly && c < 40)) sub(user, c);
    }
  });
  for (const user of users.slice(NAMED.length)) {
    sub(user, 0);
    const picks = new Set<number>();
    for (let k = 0; k < 4; k++) picks.add(prng.int(1, LARGE.channels - 1));
    for (const c of picks) sub(user, c);
  }

  const markdown = new MarkdownRenderer(state);
  const span = END - START;
  const step = Math.floor(span / LARGE.messages);
  const noDmUsers: number[] = Object.freeze([]) as unknown as number[];
  const dmPartners = users.slice(1, 300).map((u) => u.id);
  const recipients = new Map<number, Set<Flag>>();
  const ownerChannel = (c: number) => c < LARGE.ownerChannels;
  for (let i = 0; i < LARGE.messages; i++) {
    const id = FIRST_MESSAGE_ID + i;
    const timestamp = START + i * step + prng.int(0, step - 1);
    recipients.clear();
    let message: Message;
    let mention = false;
    let wildcard = false;
    let receivers: number[];
    if (prng.next() < 0.06) {
      let participants: number[];
      if (prng.next() < 0.7) {
        participants = [owner.id, prng.pick(dmPartners)];
        if (prng.next() < 0.15) participants.push(prng.pick(dmPartners));
      } else {
        participants = [users[prng.int(1, NAMED.length - 1)]!.id, users[prng.int(NAMED.length, LARGE.users - 1)]!.id];
      }
      participants = [...new Set(participants)].sort((a, b) => a - b);
      const senderId = prng.pick(participants);
      message = {
        id, senderId, content: prng.pick(T.SENTENCES), timestamp, client: "website", reactions: [],
        type: "private", channelId: null, topic: "", dmUserIds: participants, recipientId: state.dmRecipientId(participants),
      };
      receivers = participants.filter((u) => trackedIds.has(u));
    } else {
      const c = prng.next() < 0.62 ? (prng.next() < 0.04 ? 0 : prng.int(1, LARGE.ownerChannels - 1)) : prng.int(LARGE.ownerChannels, LARGE.channels - 1);
      const channel = channels[c]!;
      const senderId = ownerChannel(c) && prng.next() < 0.03 ? owner.id : prng.pick(members[c]!.length > 0 ? members[c]! : [owner.id]);
      let content: string = prng.pick(T.SENTENCES);
      const roll = prng.next();
      if (ownerChannel(c) && senderId !== owner.id && roll < 0.015) {
        content = prng.pick(T.OWNER_MENTIONS);
        mention = true;
      } else if (roll > 0.997) {
        content = prng.pick(T.WILDCARD_MENTIONS);
        wildcard = true;
      }
      message = {
        id, senderId, content, timestamp, client: "website", reactions: [],
        type: "stream", channelId: channel.id, topic: topicOf(c, prng.int(0, topicCount(c) - 1)), dmUserIds: noDmUsers, recipientId: channel.recipientId,
      };
      receivers = trackedIds.has(senderId) && !tracked[c]!.includes(senderId) ? [...tracked[c]!, senderId] : tracked[c]!;
    }
    for (const userId of receivers) {
      const flags = new Set<Flag>();
      if (userId === message.senderId || i < (userId === owner.id ? OWNER_UNREAD_FROM : OTHERS_UNREAD_FROM)) flags.add("read");
      if (mention && userId === owner.id) flags.add("mentioned");
      if (wildcard) flags.add("stream_wildcard_mentioned").add("wildcard_mentioned");
      recipients.set(userId, flags);
    }
    if (prng.next() < 0.002) recipients.get(owner.id)?.add("starred");
    if (prng.next() < 0.01) {
      const [emojiName, emojiCode] = prng.pick(T.REACTION_EMOJI);
      message.reactions.push({ emojiName, emojiCode, reactionType: "unicode_emoji", userId: users[prng.int(0, LARGE.users - 1)]!.id });
    }
    if (prng.next() < 0.001) {
      const prev = prng.pick(T.SENTENCES);
      message.editHistory = [{ user_id: message.senderId, timestamp: timestamp + 60, prev_content: prev, prev_rendered_content: markdown.render(prev) }];
      message.lastEditTimestamp = timestamp + 60;
    }
    state.insertMessage(message, recipients);
  }
  state.reserveIds("message", FIRST_MESSAGE_ID + LARGE.messages);

  // The owner follows a few topics and mutes a few others.
  for (let c = 1; c <= 40; c++) {
    state.userTopics.push({ userId: owner.id, channelId: channels[c]!.id, topic: topicOf(c, 1), visibilityPolicy: c <= 20 ? 3 : 1, lastUpdated: END - c * 3600 });
  }
  const nowSecs = Math.floor(nowMs / 1000);
  for (const user of users.slice(0, 500)) {
    const ago = (user.id * 37) % 7200;
    state.presence.set(user.id, { active_timestamp: nowSecs - ago, idle_timestamp: nowSecs - Math.floor(ago / 2) });
  }
  state.presenceLastUpdateId = 500;

  const accounts = users.slice(0, NAMED.length).map(accountOf);
  return { state, accounts };
}
