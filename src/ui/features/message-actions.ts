/**
 * Actions on the selected message: reactions (👍, the emoji picker, toggling
 * one already there), star, message info, the sender's card, copying its
 * text or a link to it (OSC 52), opening its spoilers, and showing a long one whole.
 */
import type { Message } from "../../api/schemas/common.js";
import type { Store } from "../../model/store.js";
import { condense, EXPAND_KEY } from "../../render/condense.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { osc52Copy } from "../../render/terminal.js";
import type { ActionContext, Feature } from "../app-context.js";
import { reactionGroups } from "../message-layout.js";
import { openEmojiPicker, openReactionChooser } from "../popups/EmojiPicker.js";
import { openMessageInfo } from "../popups/MessageInfo.js";
import { openUserCard } from "../popups/UserCard.js";
import { glyphs } from "../../render/glyphs.js";
import { reactionParams, reactWith, THUMBS_UP } from "../reactions.js";

// The reaction helpers live in ../reactions.ts (the popups use them too; an import cycle
// between this module and the popups deadlocks the bundle's async module start-up).
export { emojiCode, myReaction, reactionParams, reactWith, THUMBS_UP } from "../reactions.js";

import { encodeHashComponent } from "../../model/navigation-views.js";

export { encodeHashComponent };

/** A link to the message in the organization's web app (what `Y` copies). */
export function messageLink(store: Store, m: Message): string {
  const base = store.realm.url.replace(/\/+$/, "");
  if (m.type === "stream" && m.stream_id !== undefined) {
    const name = store.channelName(m.stream_id) ?? (typeof m.display_recipient === "string" ? m.display_recipient : "");
    const channel = encodeHashComponent(`${m.stream_id}-${name.replace(/ /g, "-")}`);
    return `${base}/#narrow/channel/${channel}/topic/${encodeHashComponent(m.subject)}/near/${m.id}`;
  }
  const ids = new Set<number>([m.sender_id]);
  if (Array.isArray(m.display_recipient)) for (const r of m.display_recipient) ids.add(r.id);
  const sorted = [...ids].sort((a, b) => a - b);
  return `${base}/#narrow/dm/${sorted.join(",")}-${sorted.length >= 3 ? "group" : "dm"}/near/${m.id}`;
}

function withSelected(run: (ctx: ActionContext, m: Message) => void) {
  return (ctx: ActionContext) => {
    const m = ctx.selected;
    if (!m) ctx.notify("Select a message first (j/k in the message pane)");
    else run(ctx, m);
  };
}

export const messageActionsFeature: Feature = {
  name: "message-actions",
  bindings: [
    { action: "msgThumbsUp", keys: ["+"], context: "messages", help: "Toggle 👍 on the selected message" },
    { action: "msgEmojiPicker", keys: [":"], context: "messages", help: "React with an emoji (search by name)" },
    { action: "msgToggleReaction", keys: ["="], context: "messages", help: "Toggle one of the reactions already on the message" },
    { action: "msgStar", keys: ["*"], context: "messages", help: "Star or unstar the selected message" },
    { action: "msgInfo", keys: ["i"], context: "messages", help: "Message info: sender, time, edit history, raw source" },
    { action: "msgSenderCard", keys: ["u"], context: "messages", help: "The sender's card: role, local time, status, presence" },
    { action: "msgCopyText", keys: ["y"], context: "messages", help: "Copy the message's text (OSC 52 clipboard)" },
    { action: "msgCopyLink", keys: ["Y"], context: "messages", help: "Copy a link to the message (OSC 52 clipboard)" },
    { action: "msgSpoilers", keys: ["o"], context: "messages", help: "Open or close the message's spoilers" },
    { action: "msgExpand", keys: [EXPAND_KEY], context: "messages", help: "Show all of a long message, or condense it again" },
  ],
  actions: {
    msgThumbsUp: withSelected((ctx, m) => reactWith(ctx, m, THUMBS_UP, glyphs().thumbsUp)),
    msgEmojiPicker: withSelected((ctx, m) => openEmojiPicker(ctx, m.id)),
    msgToggleReaction: withSelected((ctx, m) => {
      const groups = reactionGroups(ctx.store, m);
      const only = groups[0];
      if (!only) ctx.notify(`No reactions on this message yet (+ adds ${glyphs().thumbsUp}, : picks an emoji)`);
      else if (groups.length === 1) reactWith(ctx, m, reactionParams(only), only.label);
      else openReactionChooser(ctx, m.id);
    }),
    msgStar: withSelected((ctx, m) => {
      const starred = ctx.store.messages.starred.has(m.id);
      ctx.attempt(
        () => ctx.account.actions.setStarred(m.id, !starred),
        starred ? "Unstarred the message" : `Starred the message ${glyphs().star}`,
      );
    }),
    msgInfo: withSelected((ctx, m) => openMessageInfo(ctx, m.id)),
    msgSenderCard: withSelected((ctx, m) => openUserCard(ctx, m.sender_id)),
    msgCopyText: withSelected((ctx, m) => {
      ctx.writeTerminal(osc52Copy(m.content));
      ctx.notify(`Copied the message's text (${[...m.content].length} characters)`);
    }),
    msgCopyLink: withSelected((ctx, m) => {
      const link = messageLink(ctx.store, m);
      ctx.writeTerminal(osc52Copy(link));
      ctx.notify(`Copied link: ${sanitizeInline(link)}`);
    }),
    msgSpoilers: withSelected((ctx, m) => {
      if (!/^ {0,3}(`{3,}|~{3,})[ \t]*spoiler\b/m.test(m.content)) {
        ctx.notify("This message has no spoilers");
        return;
      }
      const open = ctx.ui.openSpoilers.includes(m.id);
      ctx.dispatch({ type: "toggleSpoiler", messageId: m.id });
      ctx.notify(open ? "Spoilers closed" : "Spoilers open (o closes them)");
    }),
    msgExpand: withSelected((ctx, m) => {
      if (!condense(m.content)) {
        ctx.notify("This message is shown whole");
        return;
      }
      const whole = ctx.ui.expanded.includes(m.id);
      ctx.dispatch({ type: "toggleExpanded", messageId: m.id });
      ctx.notify(whole ? "Condensed again" : `Shown whole (${ctx.keymap.hint("msgExpand", EXPAND_KEY)} condenses it again)`);
    }),
  },
};
