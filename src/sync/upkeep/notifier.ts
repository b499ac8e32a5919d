/**
 * One account's notifications over time: new messages that ask for one
 * (notifications.ts decides which) become notes, at most one a second, the
 * rest of a burst coalesced into one. Only live message events count — never
 * what the start or a rebuild fetched — and only messages still unread once
 * their batch was applied. Where a note goes (the bell, OSC 9/777) is the
 * screen's business: the notifier hands it to `ring`.
 */
import type { ServerEvent } from "../../api/schemas/events.js";
import type { Store } from "../../model/store.js";
import type { Clock, TimerHandle } from "../clock.js";
import { NoteCoalescer, noteFor, notificationFor, type Note } from "./notifications.js";

export class Notifier {
  private readonly coalescer: NoteCoalescer;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly ring: (note: Note) => void,
    intervalMs = 1000,
  ) {
    this.coalescer = new NoteCoalescer(intervalMs);
  }

  /** A batch of events the store has applied. */
  events(events: readonly ServerEvent[], store: Store): void {
    for (const e of events) {
      if (e.type !== "message") continue;
      // Read in the same batch (another client, or our own send) — nothing to tell.
      if (!store.unreads.has(e.message.id)) continue;
      const decision = notificationFor(store, e.message, e.flags);
      if (!decision) continue;
      const note = this.coalescer.offer(noteFor(store, e.message, decision), this.clock.now());
      if (note) this.ring(note);
    }
    this.schedule();
  }

  private schedule(): void {
    const due = this.coalescer.dueAt();
    if (due === undefined || this.timer) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      const merged = this.coalescer.flush(this.clock.now());
      if (merged) this.ring(merged);
      this.schedule();
    }, Math.max(0, due - this.clock.now()));
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
