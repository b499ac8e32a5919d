/**
 * Every way to write: reply variants (@ mention, > quote, R to the sender),
 * a new topic (c) or direct message (x), editing (e) and deleting (d) your
 * own messages, and the drafts list (D). The compose box's own keys (send,
 * new line, autocomplete, $EDITOR, moving between lines) are handled in hooks/use-compose.ts;
 * they are listed here for the keymap and the help screen.
 */
import type { Message } from "../../api/schemas/common.js";
import { dmParticipants } from "../../model/narrow.js";
import type { Store } from "../../model/store.js";
import type { ActionContext, Feature } from "../app-context.js";
import { openConfirmDelete } from "../popups/ConfirmDelete.js";
import { openDrafts } from "../popups/DraftsList.js";
import { openNewDm, openPickChannel } from "../popups/NewMessage.js";
import { openNewTopic } from "../popups/TopicPrompt.js";
import { replyTarget } from "./core.js";
import { messageLink } from "./message-actions.js";

import { targetOfMessage } from "../compose-rules.js";

export { targetOfMessage };

/** `@**Full Name|id**`: a mention that names exactly this user. */
export function mentionOf(m: Message): string {
  return `@**${m.sender_full_name}|${m.sender_id}**`;
}

/** The service's quote block: a silent mention, a link to the message, and its Markdown in a quote fence. */
export function quoteOf(store: Store, m: Message): string {
  const longest = Math.max(2, ...[...m.content.matchAll(/`{3,}/g)].map((x) => x[0].length));
  const fence = "`".repeat(longest + 1);
  return `@_**${m.sender_full_name}|${m.sender_id}** [said](${messageLink(store, m)}):\n${fence}quote\n${m.content}\n${fence}\n`;
}

function selectedOrSay(ctx: ActionContext, what: string): Message | undefined {
  if (!ctx.selected) ctx.notify(`Select a message first (j/k), then ${what}.`);
  return ctx.selected;
}

function ownOrSay(ctx: ActionContext, m: Message, what: string): boolean {
  if (m.sender_id === ctx.store.selfId) return true;
  ctx.notify(`You can only ${what} your own messages.`, "error");
  return false;
}

export const composeFeature: Feature = {
  name: "compose",
  bindings: [
    { action: "newTopic", keys: ["c"], context: "messages", help: "New topic (in this channel; elsewhere, pick the channel first)" },
    { action: "newDm", keys: ["x"], context: "messages", help: "New direct message (pick one or more people)" },
    { action: "dmSender", keys: ["R"], context: "messages", help: "Direct message to the selected message's sender" },
    { action: "replyMention", keys: ["@"], context: "messages", help: "Reply mentioning the sender" },
    { action: "quoteReply", keys: [">"], context: "messages", help: "Reply quoting the selected message" },
    { action: "editMessage", keys: ["e"], context: "messages", help: "Edit your message (Tab in the box changes the topic)" },
    { action: "deleteMessage", keys: ["d"], context: "messages", help: "Delete your message (asks first)" },
    { action: "drafts", keys: ["D"], context: "messages", help: "Drafts: resume one (Enter) or delete it (x)" },
    // Starting to write works from the sidebar too (for the open channel or conversation).
    { action: "newTopic", keys: ["c"], context: "sidebar", help: "New topic in the open channel (elsewhere, pick the channel)" },
    { action: "newDm", keys: ["x"], context: "sidebar", help: "New direct message" },
    { action: "drafts", keys: ["D"], context: "sidebar", help: "Drafts" },
    { action: "send", keys: ["enter"], context: "compose", help: "Send (or insert the highlighted suggestion)" },
    { action: "newline", keys: ["C-j", "S-enter"], context: "compose", help: "New line" },
    { action: "newlineOrSend", keys: ["M-enter"], context: "compose", help: "New line; sends when settings.enterSends is false (Enter then makes the new line)" },
    { action: "cancel", keys: ["escape"], context: "compose", help: "Close the suggestions, else the compose box (the text is kept as a draft)" },
    { action: "completeNext", keys: ["tab"], context: "compose", help: "Next suggestion (a single one is inserted); editing: change the topic" },
    { action: "completePrev", keys: ["S-tab"], context: "compose", help: "Previous suggestion" },
    { action: "externalEditor", keys: ["C-o"], context: "compose", help: "Edit the text in $VISUAL / $EDITOR" },
    { action: "lineUp", keys: ["up"], context: "compose", help: "Cursor up a line (a message of several lines)" },
    { action: "lineDown", keys: ["down"], context: "compose", help: "Cursor down a line" },
    { action: "completeAccept", keys: ["enter"], context: "compose.menu", help: "Insert the highlighted suggestion (also when Enter makes a new line)" },
  ],
  actions: {
    newTopic: (ctx) => {
      const n = ctx.narrow;
      if (n?.kind === "channel" || n?.kind === "topic") openNewTopic(ctx, n.channelId);
      else openPickChannel(ctx);
    },
    newDm: (ctx) => openNewDm(ctx),
    dmSender: (ctx) => {
      const m = selectedOrSay(ctx, "R to write to its sender");
      if (m) ctx.openCompose({ type: "direct", userIds: dmParticipants([m.sender_id], ctx.store.selfId) });
    },
    replyMention: (ctx) => {
      const m = selectedOrSay(ctx, "@ to reply mentioning its sender");
      const t = replyTarget(ctx);
      if (m && t) ctx.openCompose(t, { initialText: `${mentionOf(m)} ` });
    },
    quoteReply: (ctx) => {
      const m = selectedOrSay(ctx, "> to quote it");
      const t = replyTarget(ctx);
      if (m && t) ctx.openCompose(t, { initialText: quoteOf(ctx.store, m) });
    },
    editMessage: (ctx) => {
      const m = selectedOrSay(ctx, "e to edit it");
      if (!m || !ownOrSay(ctx, m, "edit")) return;
      ctx.openCompose(targetOfMessage(ctx.store, m), { initialText: m.content, editing: { messageId: m.id } });
    },
    deleteMessage: (ctx) => {
      const m = selectedOrSay(ctx, "d to delete it");
      if (m && ownOrSay(ctx, m, "delete")) openConfirmDelete(ctx, m);
    },
    drafts: (ctx) => openDrafts(ctx),
  },
};
