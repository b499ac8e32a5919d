// Delivers scheduled messages and reminders at their time, on a timer read
// against the server's clock (injected in tests, so they can step it).
//
// A "send later" message is checked again as if it were sent now (its author
// may have lost access, its recipients left), sent to every queue as any new
// message, and its `scheduled_messages` remove event follows. A reminder is a
// direct message from the notification bot to its author, followed by a
// `reminders` remove event. A delivery that fails marks the record failed with
// the reason, as the service does: the author's clients get a
// `scheduled_messages` update (failed: true) and the notification bot tells
// the author why in a direct message; a failed reminder is only marked.

import { nowSeconds, type ServerContext } from "./context.js";
import { ApiError, badRequest, channelIdNotFound } from "./errors.js";
import { checkChannelTopic, checkRecipientIds } from "./message-check.js";
import { deliverMessage, notificationBot, notifyNewMessage } from "./messaging.js";
import { reminderContent } from "./reminder-content.js";
import { notifyLinkedUploads } from "./routes/uploads.js";
import type { ScheduledMessage } from "./scheduled.js";
import { notifyReminder, notifyScheduled } from "./scheduled-wire.js";
import type { User } from "./state.js";

/** A "send later" message more than this late is not sent (it would surprise its readers). */
const LATE_CUTOFF_SECS = 10 * 60;

/** A failure whose author is told nothing (they can no longer read it). */
class SilentFailure extends Error {}

export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  /**
   * `maxSleepMs`: the longest the timer sleeps before it looks at the clock
   * again. An injected clock moves on its own, so it is looked at often.
   */
  constructor(
    private readonly ctx: ServerContext,
    private readonly maxSleepMs: number,
  ) {}

  /** Sets the timer for the earliest record to deliver (call after every change to the records). */
  arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.ctx.state.scheduled.nextDue();
    if (this.closed || next === undefined) return;
    const wait = Math.min(Math.max(0, next * 1000 - this.ctx.now()), this.maxSleepMs);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.deliverDue();
      this.arm();
    }, wait);
    // A pending delivery is no reason to keep a process alive that is otherwise done.
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Delivers (or fails) every record whose time has come, oldest first; returns how many. */
  deliverDue(): number {
    const due = this.ctx.state.scheduled.due(nowSeconds(this.ctx));
    for (const s of due) this.deliverOne(s);
    return due.length;
  }

  private deliverOne(s: ScheduledMessage): void {
    const { state } = this.ctx;
    try {
      const sender = state.users.get(s.senderId);
      if (!sender?.isActive) throw new SilentFailure("Account is deactivated");
      if (s.deliveryType === "remind") this.sendReminder(s, sender);
      else this.sendLater(s, sender);
    } catch (err) {
      this.fail(s, err);
    }
  }

  private sendLater(s: ScheduledMessage, sender: User): void {
    const now = nowSeconds(this.ctx);
    if (now > s.deliverAt + LATE_CUTOFF_SECS) throw new ApiError(400, "BAD_REQUEST", "Message could not be sent at the scheduled time.");
    const base = { sender, content: s.content, client: s.client, timestamp: now, readBySender: s.readBySender };
    let message;
    if (s.type === "stream") {
      const channel = this.ctx.state.channels.get(s.channelId!);
      if (!channel) throw channelIdNotFound(s.channelId!);
      // Lost access since it was scheduled (unsubscribed from a private channel, say).
      if (!this.ctx.state.canAccessChannel(sender, channel)) throw badRequest(`Not authorized to send to channel '${channel.name}'`);
      const topic = checkChannelTopic(this.ctx, sender, channel, s.topic);
      message = deliverMessage(this.ctx.state, { ...base, channel, topic });
    } else {
      const others = s.dmUserIds.filter((id) => id !== sender.id);
      message = deliverMessage(this.ctx.state, { ...base, to: checkRecipientIds(this.ctx, others.length > 0 ? others : [sender.id]) });
    }
    this.ctx.state.scheduled.byId.delete(s.id);
    notifyNewMessage(this.ctx, message);
    notifyLinkedUploads(this.ctx, message.content);
    notifyScheduled(this.ctx, s, "remove");
  }

  private sendReminder(s: ScheduledMessage, owner: User): void {
    const { state } = this.ctx;
    const target = state.messagesById.get(s.reminderTargetMessageId!);
    // The message as it is now when the owner can still read it; else the text written when the reminder was set.
    const content = target && state.canReadMessage(owner, target) ? reminderContent(this.ctx, target, s.reminderNote) : s.content;
    const message = deliverMessage(state, {
      sender: notificationBot(state),
      to: [owner.id],
      content,
      client: "Internal",
      timestamp: nowSeconds(this.ctx),
    });
    state.scheduled.byId.delete(s.id);
    notifyNewMessage(this.ctx, message);
    notifyReminder(this.ctx, s, "remove");
  }

  private fail(s: ScheduledMessage, err: unknown): void {
    if (!(err instanceof ApiError) && !(err instanceof SilentFailure)) console.error("[termchat server] scheduled delivery", err);
    s.failed = true;
    s.failureMessage = err instanceof ApiError || err instanceof SilentFailure ? err.message : "Internal server error";
    // Reminders have no notice of their own; an author who cannot log in reads none.
    if (s.deliveryType === "remind" || err instanceof SilentFailure) return;
    notifyScheduled(this.ctx, s, "update");
    const when = new Date(s.deliverAt * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const content =
      `The message you scheduled for <time:${when}> was not sent because of the following error:\n\n` +
      `> ${s.failureMessage}\n\n[View scheduled messages](#scheduled)\n\n`;
    const notice = deliverMessage(this.ctx.state, {
      sender: notificationBot(this.ctx.state),
      to: [s.senderId],
      content,
      client: "Internal",
      timestamp: nowSeconds(this.ctx),
    });
    notifyNewMessage(this.ctx, notice);
  }
}
