/** Moving around: the sidebar, the message pane, replying, help and quitting. */
import { dmParticipants, messageDmUsers } from "../../model/narrow.js";
import type { SendTarget } from "../../sync/account-handle.js";
import type { ActionContext, Feature } from "../app-context.js";
import { moveCursor } from "../sidebar-rows.js";
import { ORG_SECTION } from "../organizations.js";
import { openHelp } from "../popups/HelpPopup.js";

/** The conversation a reply goes to: the selected message's, else the open topic or DM. */
export function replyTarget(ctx: ActionContext): SendTarget | undefined {
  const m = ctx.selected;
  if (m?.type === "stream" && m.stream_id !== undefined) return { type: "stream", channelId: m.stream_id, topic: m.subject };
  if (m?.type === "private") return { type: "direct", userIds: dmParticipants(messageDmUsers(m), ctx.store.selfId) };
  const n = ctx.narrow;
  if (n?.kind === "topic") return { type: "stream", channelId: n.channelId, topic: n.topic };
  if (n?.kind === "dm") return { type: "direct", userIds: n.userIds };
  return undefined;
}

export function moveSelection(ctx: ActionContext, index: number): void {
  const m = ctx.messages[Math.max(0, Math.min(ctx.messages.length - 1, index))];
  if (!m) return;
  // At the last message follow new ones, once the newest is loaded (before, newer ones load as the reader goes on).
  const newest = ctx.narrow ? ctx.store.messages.list(ctx.narrow)?.foundNewest !== false : true;
  ctx.dispatch({ type: "select", id: m.id, follow: newest && index >= ctx.messages.length - 1 });
  if (ctx.narrow) ctx.account.actions.keepPlace(ctx.narrow, m.id);
}

function openRow(ctx: ActionContext, collapseOnRepeat: boolean): void {
  const row = ctx.sidebarRows[ctx.ui.sidebar.cursor];
  if (!row || row.kind === "header") return;
  if (row.kind === "channel") {
    const expanded = ctx.ui.sidebar.expanded === row.channelId && collapseOnRepeat ? null : row.channelId;
    ctx.dispatch({ type: "sidebar", expanded });
    ctx.openNarrow(row.narrow, { focus: "sidebar" });
    return;
  }
  if (row.kind === "folder") {
    ctx.dispatch({ type: "toggleFolder", folderId: row.folderId });
    return;
  }
  if (row.kind === "org") {
    // The open organization's section folds; another one is put on screen.
    if (row.active) ctx.dispatch({ type: "toggleFolder", folderId: ORG_SECTION });
    else ctx.organizations?.show(row.key);
    return;
  }
  if (row.kind === "view" && row.list) {
    ctx.dispatch({ type: "screen", id: row.view });
    return;
  }
  ctx.openNarrow(row.narrow, { focus: "messages" });
}

export const coreFeature: Feature = {
  name: "core",
  bindings: [
    { action: "help", keys: ["?"], context: "global", help: "Show the keys (this screen)" },
    { action: "quit", keys: ["C-c", "Q"], context: "global", help: "Quit" },
    { action: "sidebarUp", keys: ["k", "up"], context: "sidebar", help: "Move up" },
    { action: "sidebarDown", keys: ["j", "down"], context: "sidebar", help: "Move down" },
    { action: "sidebarOpen", keys: ["enter"], context: "sidebar", help: "Open; on a channel, show or hide its topics" },
    { action: "sidebarExpand", keys: ["l", "right"], context: "sidebar", help: "Open; on a channel, show its topics" },
    { action: "sidebarCollapse", keys: ["h", "left"], context: "sidebar", help: "Hide the channel's topics" },
    { action: "sidebarFirst", keys: ["g", "home"], context: "sidebar", help: "First row" },
    { action: "sidebarLast", keys: ["G", "end"], context: "sidebar", help: "Last row" },
    { action: "toMessages", keys: ["tab"], context: "sidebar", help: "Go to the message pane" },
    { action: "reply", keys: ["r"], context: "sidebar", help: "Reply in the open conversation" },
    { action: "up", keys: ["k", "up"], context: "messages", help: "Previous message" },
    { action: "down", keys: ["j", "down"], context: "messages", help: "Next message" },
    { action: "pageUp", keys: ["K", "pageup"], context: "messages", help: "Page up" },
    { action: "pageDown", keys: ["J", "pagedown"], context: "messages", help: "Page down" },
    { action: "newest", keys: ["G", "end"], context: "messages", help: "Newest message" },
    { action: "oldest", keys: ["g", "home"], context: "messages", help: "Oldest loaded message" },
    { action: "reply", keys: ["r", "enter"], context: "messages", help: "Reply to the selected message's conversation" },
    { action: "back", keys: ["escape", "h", "left", "S-tab"], context: "messages", help: "Back to the sidebar" },
  ],
  actions: {
    help: (ctx) => openHelp(ctx),
    quit: (ctx) => ctx.quit(),
    sidebarUp: (ctx) => ctx.dispatch({ type: "sidebar", cursor: moveCursor(ctx.sidebarRows, ctx.ui.sidebar.cursor, -1) }),
    sidebarDown: (ctx) => ctx.dispatch({ type: "sidebar", cursor: moveCursor(ctx.sidebarRows, ctx.ui.sidebar.cursor, 1) }),
    sidebarFirst: (ctx) => ctx.dispatch({ type: "sidebar", cursor: moveCursor(ctx.sidebarRows, 0, 0) }),
    sidebarLast: (ctx) => ctx.dispatch({ type: "sidebar", cursor: moveCursor(ctx.sidebarRows, ctx.sidebarRows.length - 1, 0) }),
    sidebarOpen: (ctx) => openRow(ctx, true),
    sidebarExpand: (ctx) => openRow(ctx, false),
    sidebarCollapse: (ctx) => ctx.dispatch({ type: "sidebar", expanded: null }),
    toMessages: (ctx) => ctx.dispatch({ type: "focus", focus: "messages" }),
    up: (ctx) => moveSelection(ctx, ctx.selectedIndex - 1),
    down: (ctx) => moveSelection(ctx, ctx.selectedIndex + 1),
    pageUp: (ctx) => moveSelection(ctx, ctx.selectedIndex - Math.max(1, Math.floor(ctx.paneHeight / 4))),
    pageDown: (ctx) => moveSelection(ctx, ctx.selectedIndex + Math.max(1, Math.floor(ctx.paneHeight / 4))),
    // Also before the narrow has loaded: follow the newest message from then on.
    newest: (ctx) => ctx.dispatch({ type: "select", id: ctx.messages[ctx.messages.length - 1]?.id, follow: true }),
    oldest: (ctx) => moveSelection(ctx, 0),
    reply: (ctx) => {
      const t = replyTarget(ctx);
      if (t) ctx.openCompose(t);
      else ctx.notify("Open a topic or a conversation to reply (c starts a new topic, x a direct message)");
    },
    back: (ctx) => ctx.dispatch({ type: "focus", focus: "sidebar" }),
  },
};
