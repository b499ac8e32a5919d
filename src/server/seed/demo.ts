// The `demo` data set: "Lighthouse Labs", a small product studio. Same users,
// API keys, channels and messages on every start; only presence is relative
// to the start time.

import { ROLE, State } from "../state.js";
import type { DemoAccount } from "../types.js";
import {
  accountOf,
  addChannel,
  addUser,
  createSystemGroups,
  defaultUserSettings,
  subscribe,
  SUBSCRIPTION_COLORS,
  type UserSpec,
} from "./common.js";
import { addConversations } from "./conversations.js";
import { DM_SCRIPTS } from "./demo-dms.js";
import { ENGINEERING_SCRIPTS, GENERAL_SCRIPTS } from "./demo-general.js";
import { FILE_SCRIPTS, seedFiles, seedWidgetActivity } from "./demo-files.js";
import { MORE_SCRIPTS } from "./demo-more.js";
import { TEAM_SCRIPTS } from "./demo-teams.js";

const DOMAIN = "lighthouse.test";
const DAY0 = Date.UTC(2026, 10, 11); // Wednesday 2026-11-11
const END = Date.UTC(2026, 10, 20, 17, 0) / 1000; // Friday 2026-11-20 17:00 UTC
const UNREAD_FROM = Date.UTC(2026, 10, 20, 12, 0) / 1000;
const ts = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const PEOPLE: [short: string, spec: Omit<UserSpec, "email">][] = [
  ["maya", { fullName: "Maya Okafor", role: ROLE.owner, timezone: "Europe/London", dateJoined: "2024-03-04T09:00:00+00:00" }],
  ["ben", { fullName: "Ben Carter", role: ROLE.admin, timezone: "Europe/London", dateJoined: "2024-03-04T09:30:00+00:00" }],
  ["priya", { fullName: "Priya Raman", role: ROLE.moderator, timezone: "Europe/Berlin", dateJoined: "2024-04-15T08:00:00+00:00" }],
  ["omar", { fullName: "Omar Haddad", role: ROLE.member, timezone: "Europe/Berlin", dateJoined: "2024-06-03T08:00:00+00:00" }],
  ["lena", { fullName: "Lena Fischer", role: ROLE.member, timezone: "Europe/Berlin", dateJoined: "2024-09-02T08:00:00+00:00" }],
  ["diego", { fullName: "Diego Alvarez", role: ROLE.member, timezone: "America/New_York", dateJoined: "2025-01-13T14:00:00+00:00" }],
  ["hana", { fullName: "Hana Suzuki", role: ROLE.member, timezone: "Asia/Tokyo", dateJoined: "2025-05-19T00:30:00+00:00" }],
  ["sam", { fullName: "Sam Whitaker", role: ROLE.guest, timezone: "America/Chicago", dateJoined: "2026-11-16T08:00:00+00:00" }],
];

export interface SeedResult {
  state: State;
  accounts: DemoAccount[];
}

export function seedDemo(nowMs: number): SeedResult {
  const state = new State({
    name: "Lighthouse Labs",
    description: "A small product studio building tools for teams. **Welcome aboard!**",
    stringId: "lighthouse",
    dateCreated: ts("2024-03-04T09:00:00Z"),
    emptyTopicDisplayName: "general chat",
    enableReadReceipts: true,
    enableSpectatorAccess: true,
    emailDomain: DOMAIN,
  });
  state.reserveIds("user", 11);
  state.reserveIds("message", 1001);

  const people = new Map(PEOPLE.map(([short, spec]) => [short, addUser(state, { ...spec, email: `${short}@${DOMAIN}` })]));
  const u = (short: string) => people.get(short)!;
  people.set("ci", addUser(state, {
    email: `ci-bot@${DOMAIN}`, fullName: "CI Bot", role: ROLE.member, timezone: "", dateJoined: "2024-05-02T10:00:00+00:00",
    bot: { type: 1, ownerId: u("ben").id },
  }));
  people.set("tom", addUser(state, {
    email: `tom@${DOMAIN}`, fullName: "Tom Becker", role: ROLE.member, timezone: "Europe/Berlin", dateJoined: "2024-03-11T08:00:00+00:00",
  }));
  for (const user of state.users.values()) state.userSettings.set(user.id, defaultUserSettings(user.timezone));

  const groups = createSystemGroups(state, ts("2024-03-04T09:00:00Z"));
  const designTeam = state.allocate("group");
  state.groups.set(designTeam, {
    id: designTeam, name: "design-team", description: "Product design and research", isSystem: false,
    members: [u("lena").id, u("hana").id, u("priya").id], subgroups: [], dateCreated: ts("2025-06-01T10:00:00Z"),
    creatorId: u("lena").id, deactivated: false,
    settings: { can_add_members_group: groups.members, can_join_group: groups.members, can_leave_group: groups.everyone,
      can_manage_group: { direct_members: [u("lena").id], direct_subgroups: [groups.administrators] },
      can_mention_group: groups.everyone, can_remove_members_group: groups.administrators },
  });

  const folder = (name: string, description: string, order: number) => {
    const id = state.allocate("folder");
    state.folders.set(id, { id, name, description, order, dateCreated: ts("2025-09-01T12:00:00Z"), creatorId: u("maya").id, isArchived: false });
    return id;
  };
  const product = folder("Product", "Building and shipping the product", 0);
  const community = folder("Community", "Company news and everything else", 1);

  const mk = (name: string, description: string, created: string, extra: Partial<Parameters<typeof addChannel>[1]> = {}) =>
    addChannel(state, {
      name, description, dateCreated: ts(created), creatorId: u("maya").id, inviteOnly: false, isWebPublic: false,
      historyPublicToSubscribers: true, isArchived: false, folderId: null, ...extra,
    }, groups);
  const general = mk("general", "Everyone at Lighthouse Labs: company-wide chatter and questions.", "2024-03-04T09:05:00Z");
  const engineering = mk("engineering", "Backend, frontend and infrastructure. Release threads live here.", "2024-03-04T09:06:00Z", { folderId: product });
  const design = mk("design", "Product design, UX research and the design system.", "2024-04-20T10:00:00Z", { folderId: product, creatorId: u("lena").id });
  const random = mk("random", "Off-topic: books, food, music, weekend plans.", "2024-03-04T09:07:00Z", { folderId: community });
  const announcements = mk("announcements", "Official news. Only administrators can post here.", "2024-03-05T12:00:00Z", { folderId: community, isWebPublic: true });
  announcements.groups.can_send_message_group = groups.administrators;
  const leadership = mk("leadership", "Private: planning between the founders and leads.", "2024-03-06T08:00:00Z", { inviteOnly: true, creatorId: u("maya").id });
  const mobile = mk("mobile-app", "The old React Native app (archived after the web-first pivot).", "2024-03-11T09:00:00Z", { creatorId: u("tom").id });
  const helpDesk = mk("help-desk", "IT support: laptops, VPN, accounts.", "2024-07-01T09:00:00Z", { creatorId: u("ben").id });
  state.defaultChannelIds.push(general.id, announcements.id);

  const humans = ["maya", "ben", "priya", "omar", "lena", "diego", "hana"];
  const members: [typeof general, string[]][] = [
    [general, [...humans, "sam", "tom"]],
    [engineering, ["maya", "ben", "priya", "omar", "diego", "hana", "ci", "tom"]],
    [design, ["maya", "priya", "lena", "hana", "sam"]],
    [random, [...humans, "tom"]],
    [announcements, [...humans, "sam", "tom"]],
    [leadership, ["maya", "ben", "priya"]],
    [mobile, ["maya", "omar", "diego", "tom"]],
    [helpDesk, ["ben", "priya", "omar", "lena", "diego", "hana"]],
  ];
  members.forEach(([channel, who], ci) => {
    who.forEach((short, ui) => {
      const color = SUBSCRIPTION_COLORS[(ci * 3 + ui * (short === "maya" ? 0 : 5)) % SUBSCRIPTION_COLORS.length]!;
      subscribe(state, u(short).id, channel.id, color);
    });
  });
  const mayaSub = (channelId: number) => state.subscriptions.get(u("maya").id)!.get(channelId)!;
  mayaSub(engineering.id).pinToTop = true;
  mayaSub(random.id).isMuted = true;
  mayaSub(announcements.id).pushNotifications = true;

  state.realmEmoji.set("1", { id: "1", name: "lighthouse", sourceUrl: "/user_avatars/1/emoji/images/lighthouse.png", deactivated: false, authorId: u("maya").id });

  seedFiles(state, u, ts);
  addConversations(state, {
    day0: DAY0, end: END, unreadFrom: UNREAD_FROM, firstMessageId: 1001, seed: 2026, people, starredBy: u("maya").id,
  }, [...GENERAL_SCRIPTS, ...ENGINEERING_SCRIPTS, ...TEAM_SCRIPTS, ...MORE_SCRIPTS, ...FILE_SCRIPTS], DM_SCRIPTS);
  seedWidgetActivity(state, u);

  // Tom left the company after the mobile app was archived.
  u("tom").isActive = false;
  mobile.isArchived = true;

  state.userTopics.push(
    { userId: u("maya").id, channelId: engineering.id, topic: "release 2.4", visibilityPolicy: 3, lastUpdated: ts("2026-11-16T10:05:00Z") },
    { userId: u("maya").id, channelId: engineering.id, topic: "deploys", visibilityPolicy: 1, lastUpdated: ts("2026-11-12T17:00:00Z") },
  );
  state.userStatus.set(u("ben").id, { status_text: "Out Friday afternoon", emoji_name: "calendar", emoji_code: "1f4c5", reaction_type: "unicode_emoji", away: false });
  state.userStatus.set(u("sam").id, { status_text: "Research sessions all day", emoji_name: "books", emoji_code: "1f4da", reaction_type: "unicode_emoji", away: false });
  state.drafts.set(u("maya").id, [{
    id: state.allocate("draft"), type: "stream", to: [engineering.id], topic: "release 2.4",
    content: "Approved, go ahead with 2.4.1 —", timestamp: ts("2026-11-20T14:50:00Z"),
  }]);

  const nowSecs = Math.floor(nowMs / 1000);
  const seen: [string, number, number][] = [
    ["maya", 5, 5], ["ben", 30, 30], ["priya", 600, 120], ["omar", 20, 20], ["lena", 3600, 1800],
    ["diego", 2 * 86400, 2 * 86400], ["hana", 45, 45], ["sam", 900, 300],
  ];
  for (const [short, activeAgo, idleAgo] of seen) {
    state.presence.set(u(short).id, { active_timestamp: nowSecs - activeAgo, idle_timestamp: nowSecs - idleAgo });
  }
  state.presenceLastUpdateId = seen.length;

  const accounts = [...state.users.values()].filter((user) => user.isActive).map(accountOf);
  return { state, accounts };
}
