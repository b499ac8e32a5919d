/**
 * Whether a new message notifies, and what the notification says. Pure: the
 * decision reads the store (subscriptions, muted topics, the user's
 * settings) and the message event's flags; the account runtime's notifier
 * (sync/upkeep/notifier.ts) does the timing, and the screen writes the
 * escape sequences (ui/notifications.ts).
 *
 * A message notifies when it is a direct message to you, mentions you (a
 * wildcard mention only where the subscription's or your wildcard setting
 * allows), contains one of your alert words, or is in a channel (or a
 * followed topic) whose notification settings ask for it — and it is not
 * your own, not already read, not from a muted user, not in a muted topic.
 */
import type { Message } from "../../api/schemas/common.js";
import { mentionKind } from "../../model/narrow.js";
import type { Store } from "../../model/store.js";
import { VISIBILITY } from "../../model/store.js";
import { sanitizeInline } from "../../render/sanitize.js";

export type NotifyReason = "dm" | "mention" | "wildcard" | "alert" | "channel" | "followed";

export interface NotifyDecision {
  reason: NotifyReason;
  /** Ring the bell (audible). */
  audible: boolean;
  /** Send a desktop notification (OSC 9/777). */
  desktop: boolean;
}

export interface Note {
  messageId: number;
  title: string;
  body: string;
  audible: boolean;
  desktop: boolean;
}

/** A user setting as a boolean, with a fallback when the server did not send it. */
function userFlag(store: Store, name: string, fallback: boolean): boolean {
  const v = store.personal.settings[name];
  return typeof v === "boolean" ? v : fallback;
}

/** Decides whether a new message (with the flags its event carried) notifies; undefined: it does not. */
export function notificationFor(store: Store, m: Message, flags: readonly string[]): NotifyDecision | undefined {
  if (m.sender_id === store.selfId) return undefined;
  if (flags.includes("read")) return undefined;
  if (store.mutedUsers.has(m.sender_id)) return undefined;
  const desktopDefault = userFlag(store, "enable_desktop_notifications", true);
  const soundDefault = userFlag(store, "enable_sounds", true);
  if (m.type === "private") return { reason: "dm", audible: soundDefault, desktop: desktopDefault };

  const channelId = m.stream_id;
  if (channelId === undefined) return undefined;
  if (store.isTopicMuted(channelId, m.subject)) return undefined;
  const sub = store.channels.get(channelId);

  const mention = mentionKind(flags);
  if (mention === "direct") return { reason: "mention", audible: soundDefault, desktop: desktopDefault };
  if (mention === "wildcard") {
    const allowed = sub?.wildcard_mentions_notify ?? userFlag(store, "wildcard_mentions_notify", true);
    if (allowed) return { reason: "wildcard", audible: soundDefault, desktop: desktopDefault };
  }
  if (flags.includes("has_alert_word")) return { reason: "alert", audible: soundDefault, desktop: desktopDefault };
  if (!sub) return undefined;

  const desktop = sub.desktop_notifications ?? userFlag(store, "enable_stream_desktop_notifications", false);
  const audible = sub.audible_notifications ?? userFlag(store, "enable_stream_audible_notifications", false);
  if (desktop || audible) return { reason: "channel", audible, desktop };
  if (store.topicPolicy(channelId, m.subject) === VISIBILITY.followed) {
    const fDesktop = userFlag(store, "enable_followed_topic_desktop_notifications", false);
    const fAudible = userFlag(store, "enable_followed_topic_audible_notifications", false);
    if (fDesktop || fAudible) return { reason: "followed", audible: fAudible, desktop: fDesktop };
  }
  return undefined;
}

/** A short one-line preview of a message's Markdown source (sanitized, bounded). */
export function previewText(content: string, max = 100): string {
  const plain = sanitizeInline(
    content
      .replace(/```[^\n]*\n[\s\S]*?(```|$)/g, " [code] ")
      .replace(/@_?\*\*([^*|]+)(\|\d+)?\*\*/g, "@$1")
      .replace(/#\*\*([^*]+)\*\*/g, "#$1")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[*_~`]+/g, ""),
    { keepEmoji: true },
  )
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > max ? plain.slice(0, max - 1) + "…" : plain;
}

/** The notification's title and text for a message. */
export function noteFor(store: Store, m: Message, d: NotifyDecision): Note {
  const sender = sanitizeInline(m.sender_full_name || store.userName(m.sender_id), { keepEmoji: true });
  let title: string;
  let body = previewText(m.content);
  if (m.type === "private") {
    const others = Array.isArray(m.display_recipient) ? m.display_recipient.filter((r) => r.id !== store.selfId) : [];
    title = others.length > 1 ? `${sender} (group DM)` : sender;
    // The user may ask for direct-message notifications without the content.
    if (!userFlag(store, "pm_content_in_desktop_notifications", true)) body = "New direct message";
  } else {
    const channel = sanitizeInline(store.channelName(m.stream_id ?? -1) ?? "channel", { keepEmoji: true });
    title = `${sender} in #${channel} > ${sanitizeInline(store.topicDisplayName(m.subject), { keepEmoji: true })}`;
  }
  return { messageId: m.id, title, body: body || "(no text)", audible: d.audible, desktop: d.desktop };
}

/**
 * At most one notification per interval: the first goes out at once; those
 * arriving within the interval are held and go out as one at its end (the
 * newest message's text, with a count when there were several).
 */
export class NoteCoalescer {
  private lastAt = -Infinity;
  private held: Note[] = [];

  constructor(readonly intervalMs = 1000) {}

  /** Offers a note at `now`; returns the note to send now, if any (else it is held until `dueAt()`). */
  offer(note: Note, now: number): Note | undefined {
    if (this.held.length === 0 && now - this.lastAt >= this.intervalMs) {
      this.lastAt = now;
      return note;
    }
    this.held.push(note);
    return undefined;
  }

  /** When the held notes are due (undefined: nothing held). */
  dueAt(): number | undefined {
    return this.held.length ? this.lastAt + this.intervalMs : undefined;
  }

  /** The held notes as one, when due. */
  flush(now: number): Note | undefined {
    const due = this.dueAt();
    if (due === undefined || now < due) return undefined;
    const held = this.held;
    this.held = [];
    this.lastAt = now;
    const newest = held[held.length - 1]!;
    const merged: Note = {
      ...newest,
      audible: held.some((n) => n.audible),
      desktop: held.some((n) => n.desktop),
    };
    if (held.length > 1) merged.title = `${held.length} new messages — ${newest.title}`;
    return merged;
  }
}
