/**
 * Bell and desktop notifications (OSC 9 and OSC 777) for new messages that
 * ask for them (see ui/notifications.ts for which do). Only live message
 * events count — never what the initial load or a rebuild fetched — and
 * only messages still unread once their batch was applied. At most one
 * notification a second: the rest of a burst is coalesced into one.
 */
import { useEffect, useRef } from "react";
import type { SyncSession } from "../../sync/session.js";
import type { ActionContext } from "../app-context.js";
import { NoteCoalescer, noteFor, noteSequence, notificationFor, type Note } from "../notifications.js";

export function useNotifications(session: SyncSession, ctx: ActionContext | undefined): void {
  const ctxRef = useRef(ctx);
  ctxRef.current = ctx;
  useEffect(() => {
    const coalescer = new NoteCoalescer(1000);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const write = (note: Note) => {
      const c = ctxRef.current;
      if (!c) return;
      const seq = noteSequence(note, c.settings.notifications);
      if (seq) c.writeTerminal(seq);
    };
    const schedule = () => {
      const due = coalescer.dueAt();
      if (due === undefined || timer) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          const merged = coalescer.flush(Date.now());
          if (merged) write(merged);
          schedule();
        },
        Math.max(0, due - Date.now()),
      );
    };
    const off = session.machine.onEvents((events, store) => {
      for (const e of events) {
        if (e.type !== "message") continue;
        // Read in the same batch (another client, or our own send) — nothing to tell.
        if (!store.unreads.has(e.message.id)) continue;
        const decision = notificationFor(store, e.message, e.flags);
        if (!decision) continue;
        const now = Date.now();
        const note = coalescer.offer(noteFor(store, e.message, decision), now);
        if (note) write(note);
      }
      schedule();
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [session]);
}
