// Message reminders: POST /reminders ("remind me about this message" at a
// time, with an optional note), GET /reminders, DELETE /reminders/{id}. A
// reminder is a scheduled message of its own kind, from the user to the user;
// at its time the notification bot sends it (see scheduled-delivery.ts).
// Each change reaches the user's clients as a `reminders` event.

import { ApiError, badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { clientName } from "../message-check.js";
import { MAX_REMINDER_NOTE_LENGTH, normalizeNote, reminderContent } from "../reminder-content.js";
import { notifyReminder, reminderToWire } from "../scheduled-wire.js";
import { accessMessage } from "./messages-view.js";
import { futureTimestamp } from "./scheduled-messages.js";

export const reminderRoutes: Route[] = [
  {
    method: "GET",
    path: "/reminders",
    handler({ server, user }) {
      return { reminders: server.state.scheduled.of(user.id, "remind").map((s) => reminderToWire(server, s)) };
    },
  },
  {
    method: "POST",
    path: "/reminders",
    handler(ctx) {
      const { server, params, user } = ctx;
      const messageId = params.reqInt("message_id");
      const deliverAt = futureTimestamp(server, params, true);
      const rawNote = params.str("note");
      const target = accessMessage(server, user, String(messageId));
      const note = rawNote === undefined ? undefined : normalizeNote(rawNote);
      if (note === null) throw badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
      const s = server.state.scheduled.add({
        senderId: user.id,
        deliveryType: "remind",
        type: "private",
        channelId: null,
        topic: "",
        dmUserIds: [user.id],
        content: reminderContent(server, target, note || undefined),
        deliverAt,
        readBySender: false,
        client: clientName(ctx.userAgent),
        failed: false,
        failureMessage: null,
        reminderTargetMessageId: target.id,
        ...(note ? { reminderNote: note } : {}),
      });
      notifyReminder(server, s, "add");
      server.scheduler.arm();
      return { reminder_id: s.id };
    },
  },
  {
    method: "DELETE",
    path: "/reminders/:reminder_id",
    handler({ server, user, path }) {
      const raw = path["reminder_id"] ?? "";
      const s = /^\d+$/.test(raw) ? server.state.scheduled.byId.get(Number(raw)) : undefined;
      if (!s || s.senderId !== user.id || s.deliveryType !== "remind") throw new ApiError(404, "BAD_REQUEST", "Reminder does not exist");
      server.state.scheduled.byId.delete(s.id);
      notifyReminder(server, s, "remove");
      server.scheduler.arm();
      return {};
    },
  },
];
