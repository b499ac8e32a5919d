// Scheduled messages and message reminders: both are messages waiting for
// their time, as the service keeps them (one kind of record, one sequence of
// IDs). A "send later" message goes out from its author to its channel or
// people; a reminder goes out as a direct message from the notification bot
// to the one who asked for it. Delivered or cancelled ones are forgotten; one
// that failed stays, marked, until its author edits or deletes it.

export interface ScheduledMessage {
  id: number;
  senderId: number;
  deliveryType: "send_later" | "remind";
  type: "stream" | "private";
  /** Channel messages only. */
  channelId: number | null;
  /** "" for direct messages. */
  topic: string;
  /** Direct messages: every participant, the sender included, sorted. */
  dmUserIds: number[];
  content: string;
  /** UNIX seconds. */
  deliverAt: number;
  readBySender: boolean;
  client: string;
  failed: boolean;
  failureMessage: string | null;
  /** Reminders only: the message reminded of, and the note written with it. */
  reminderTargetMessageId?: number;
  reminderNote?: string;
}

export class ScheduledMessages {
  readonly byId = new Map<number, ScheduledMessage>();
  private nextId = 1;

  add(record: Omit<ScheduledMessage, "id">): ScheduledMessage {
    const s = { ...record, id: this.nextId++ };
    this.byId.set(s.id, s);
    return s;
  }

  /** One user's undelivered records of a kind (failed ones included), by time then ID. */
  of(userId: number, deliveryType: ScheduledMessage["deliveryType"]): ScheduledMessage[] {
    return [...this.byId.values()].filter((s) => s.senderId === userId && s.deliveryType === deliveryType).sort(byTime);
  }

  /** Records whose time has come (failed ones wait for their author), by time then ID. */
  due(nowSecs: number): ScheduledMessage[] {
    return [...this.byId.values()].filter((s) => !s.failed && s.deliverAt <= nowSecs).sort(byTime);
  }

  /** The earliest time of a record still to deliver. */
  nextDue(): number | undefined {
    let next: number | undefined;
    for (const s of this.byId.values()) if (!s.failed && (next === undefined || s.deliverAt < next)) next = s.deliverAt;
    return next;
  }
}

function byTime(a: ScheduledMessage, b: ScheduledMessage): number {
  return a.deliverAt - b.deliverAt || a.id - b.id;
}
