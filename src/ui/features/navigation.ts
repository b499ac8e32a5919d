/**
 * Getting around: narrowing to the selected message's channel or topic (s, S,
 * z), the next unread topic (n) and DM conversation (p), the built-in views
 * (a, P, f, #, I), and marking the open narrow read (M; "all" asks first).
 */
import { dmParticipants, messageDmUsers, narrowKey, type Narrow } from "../../model/narrow.js";
import { dmRows, narrowTitle, topicRows } from "../../model/selectors.js";
import { folderSections } from "../../model/selectors-views.js";
import type { Store } from "../../model/store.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { ActionContext, Feature } from "../app-context.js";
import { openConfirm } from "../popups/Confirm.js";
import { sidebarRowKey } from "../sidebar-rows.js";
import { sidebarRowsOf } from "../organizations.js";

type TopicNarrow = Extract<Narrow, { kind: "topic" }>;
type DmNarrow = Extract<Narrow, { kind: "dm" }>;

/**
 * The next topic with unread messages after the open narrow, in sidebar order
 * (pinned channels, each folder, the other channels; within a channel the
 * most recent topic first), wrapping around; never the open topic itself.
 * Muted topics and the topics of muted channels (unless unmuted or followed)
 * are skipped. From a channel narrow, its own topics come next.
 */
export function nextUnreadTopic(store: Store, current: Narrow | undefined): TopicNarrow | undefined {
  const currentKey = current ? narrowKey(current) : "";
  const currentChannel = current?.kind === "topic" || current?.kind === "channel" ? current.channelId : undefined;
  const candidates: TopicNarrow[] = [];
  let passed = currentChannel === undefined;
  let firstAfter = -1;
  for (const section of folderSections(store)) {
    for (const c of section.channels) {
      const isCurrent = c.channelId === currentChannel;
      if (!isCurrent && store.unreads.countInChannel(c.channelId) === 0) continue;
      if (isCurrent && current?.kind === "channel") passed = true;
      for (const t of topicRows(store, c.channelId)) {
        const n: TopicNarrow = { kind: "topic", channelId: c.channelId, topic: t.topic };
        if (narrowKey(n) === currentKey) {
          passed = true;
          continue;
        }
        if (t.unread === 0 || !store.countsInFeed(c.channelId, t.topic)) continue;
        candidates.push(n);
        if (passed && firstAfter < 0) firstAfter = candidates.length - 1;
      }
      if (isCurrent) passed = true;
    }
  }
  return candidates[firstAfter >= 0 ? firstAfter : 0];
}

/** The next DM conversation with unread messages after the open one (sidebar order: most recent first), wrapping. */
export function nextUnreadDm(store: Store, current: Narrow | undefined): DmNarrow | undefined {
  const rows = dmRows(store, Number.MAX_SAFE_INTEGER);
  const currentKey = current?.kind === "dm" ? current.userIds.join(",") : undefined;
  const at = currentKey === undefined ? -1 : rows.findIndex((r) => r.userIds.join(",") === currentKey);
  const unread = (i: number) => rows[i] !== undefined && rows[i].unread > 0 && rows[i].userIds.join(",") !== currentKey;
  for (let step = 1; step <= rows.length; step++) {
    const i = (at + step + rows.length) % rows.length;
    if (unread(i)) return { kind: "dm", userIds: rows[i]!.userIds };
  }
  return undefined;
}

/** Moves the sidebar cursor to a narrow's row, showing the topics of its channel. */
export function revealInSidebar(ctx: ActionContext, narrow: Narrow | `view:${string}`): void {
  const s = ctx.ui.sidebar;
  const channelId = typeof narrow !== "string" && (narrow.kind === "topic" || narrow.kind === "channel") ? narrow.channelId : undefined;
  const expanded = channelId ?? s.expanded;
  const rows = sidebarRowsOf(ctx.store, { expanded, filter: s.filter, collapsedFolders: s.collapsedFolders }, ctx.organizations?.list());
  const key = typeof narrow === "string" ? narrow : narrowKey(narrow);
  const index = rows.findIndex((r) => sidebarRowKey(r) === key);
  ctx.dispatch({ type: "sidebar", expanded: expanded ?? null, cursor: index >= 0 ? index : undefined });
}

/** Opens a narrow in the message pane (at `select`, else its first unread or newest message) and shows it in the sidebar. */
export function openAt(ctx: ActionContext, narrow: Narrow, select?: number): void {
  ctx.openNarrow(narrow, { focus: "messages", select });
  revealInSidebar(ctx, narrow);
}

function channelNarrowOf(ctx: ActionContext): Narrow | undefined {
  const m = ctx.selected;
  if (m?.type === "stream" && m.stream_id !== undefined) return { kind: "channel", channelId: m.stream_id };
  if (m?.type === "private") return { kind: "all-dms" };
  const n = ctx.narrow;
  if (n?.kind === "topic") return { kind: "channel", channelId: n.channelId };
  if (n?.kind === "dm") return { kind: "all-dms" };
  return undefined;
}

function conversationNarrowOf(ctx: ActionContext): Narrow | undefined {
  const m = ctx.selected;
  if (m?.type === "stream" && m.stream_id !== undefined) return { kind: "topic", channelId: m.stream_id, topic: m.subject };
  if (m?.type === "private") return { kind: "dm", userIds: dmParticipants(messageDmUsers(m), ctx.store.selfId) };
  return undefined;
}

function narrowTo(ctx: ActionContext, target: Narrow | undefined): void {
  if (!target) {
    ctx.notify("Select a message first");
    return;
  }
  openAt(ctx, target, ctx.selected?.id);
}

/** z: from a topic to its channel and back (a DM conversation and all DMs likewise). */
function toggleNarrow(ctx: ActionContext): void {
  const n = ctx.narrow;
  if (n?.kind === "topic") openAt(ctx, { kind: "channel", channelId: n.channelId }, ctx.selected?.id);
  else if (n?.kind === "dm") openAt(ctx, { kind: "all-dms" }, ctx.selected?.id);
  else narrowTo(ctx, conversationNarrowOf(ctx));
}

function openView(ctx: ActionContext, narrow: Narrow): void {
  openAt(ctx, narrow);
}

function nextTopic(ctx: ActionContext): void {
  const next = nextUnreadTopic(ctx.store, ctx.narrow);
  if (!next && followsOtherOrganizations(ctx, (s) => nextUnreadTopic(s, undefined))) return;
  if (!next) return ctx.notify("No more unread topics");
  openAt(ctx, next, ctx.store.firstUnreadIn(next));
}

function nextDm(ctx: ActionContext): void {
  const next = nextUnreadDm(ctx.store, ctx.narrow);
  if (!next && followsOtherOrganizations(ctx, (s) => nextUnreadDm(s, undefined))) return;
  if (!next) return ctx.notify("No more unread direct messages");
  openAt(ctx, next, ctx.store.firstUnreadIn(next));
}

/** With several organizations and the setting on, n and p go on to the next organization's unreads. */
function followsOtherOrganizations(ctx: ActionContext, find: (store: Store) => Narrow | undefined): boolean {
  return ctx.settings.organizations.followUnreads && ctx.organizations !== undefined && ctx.organizations.followUnread(find);
}

/** M: the open narrow (topic, channel, conversation…); the combined feed or the Inbox means everything, after a question. */
function markOpenRead(ctx: ActionContext): void {
  const { account, store } = ctx;
  const narrow = ctx.narrow ?? { kind: "feed" };
  if (narrow.kind === "search") return ctx.notify("Search results are not marked read; open a topic or channel first");
  if (narrow.kind === "feed") {
    openConfirm(ctx, {
      title: "Mark all messages as read?",
      lines: [`${store.unreads.allIds().length} unread messages in every channel and conversation.`],
      action: "mark all read",
      onConfirm: () => ctx.attempt(() => account.actions.markNarrowRead(narrow), "Marked all messages as read"),
    });
    return;
  }
  const title = sanitizeInline(narrowTitle(store, narrow));
  ctx.attempt(() => account.actions.markNarrowRead(narrow), `Marked ${title} as read`);
}

export const navigationFeature: Feature = {
  name: "navigation",
  bindings: [
    { action: "narrowChannel", keys: ["s"], context: "global", help: "Narrow to the selected message's channel" },
    { action: "narrowTopic", keys: ["S"], context: "global", help: "Narrow to the selected message's topic or conversation" },
    { action: "toggleNarrow", keys: ["z"], context: "global", help: "Toggle between the topic and its channel" },
    { action: "nextUnreadTopic", keys: ["n"], context: "global", help: "Next unread topic" },
    { action: "nextUnreadDm", keys: ["p"], context: "global", help: "Next unread direct message conversation" },
    { action: "allDms", keys: ["P"], context: "global", help: "All direct messages" },
    { action: "starredView", keys: ["f"], context: "global", help: "Starred messages" },
    { action: "mentionsView", keys: ["#"], context: "global", help: "Mentions" },
    { action: "feedView", keys: ["a"], context: "global", help: "Combined feed" },
    { action: "inboxView", keys: ["I"], context: "global", help: "Inbox" },
    { action: "markRead", keys: ["M"], context: "global", help: "Mark the open topic/channel/conversation read (all: asks first)" },
  ],
  actions: {
    narrowChannel: (ctx) => narrowTo(ctx, channelNarrowOf(ctx)),
    narrowTopic: (ctx) => narrowTo(ctx, conversationNarrowOf(ctx)),
    toggleNarrow,
    nextUnreadTopic: nextTopic,
    nextUnreadDm: nextDm,
    allDms: (ctx) => openView(ctx, { kind: "all-dms" }),
    starredView: (ctx) => openView(ctx, { kind: "starred" }),
    mentionsView: (ctx) => openView(ctx, { kind: "mentioned" }),
    feedView: (ctx) => openView(ctx, { kind: "feed" }),
    inboxView: (ctx) => {
      ctx.dispatch({ type: "screen", id: "inbox" });
      revealInSidebar(ctx, "view:inbox");
    },
    markRead: markOpenRead,
  },
};
