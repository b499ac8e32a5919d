/**
 * Reminders: "remind me about this message" at a time (! on a message, with
 * an optional note), and the list of reminders waiting (the palette), soonest
 * first: Enter opens the message, x cancels the reminder. The server sends a
 * reminder at its time as a direct message from its notification bot quoting
 * the message; it then leaves the list. On a server too old for reminders, or
 * for listing them, the action says so.
 */
import { missingFeature } from "../../model/features.js";
import { remindersOf, reminderRows, type ReminderRow } from "../../model/selectors-personal.js";
import type { Store } from "../../model/store.js";
import { formatDateTime } from "../../render/time.js";
import type { Message } from "../../api/schemas/common.js";
import type { ActionContext } from "../app-context.js";
import { targetOfMessage } from "../compose-rules.js";
import { useScreenActions, useScreenState, type ScreenActions } from "../contexts.js";
import { targetNarrow } from "../../model/narrow.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { ItemList, clampCursor, useKept, type ItemRow } from "./ItemList.js";
import { FAILED_TEXT, STATE_WORDS } from "./ScheduledList.js";
import { openWhenForm } from "./when-form.js";

function reminderItem(store: Store, r: ReminderRow): ItemRow {
  const m = store.messages.byId.get(r.messageId);
  const about = m ? `${m.sender_full_name} in ${targetTitle(store, m)}` : `message ${r.messageId}`;
  return {
    key: String(r.id),
    title: `${formatDateTime(r.at)} · ${about}`,
    detail: r.state === "failed" ? "failed" : STATE_WORDS[r.state].replace("sending", "reminding"),
    problem: r.state === "failed" ? FAILED_TEXT.replace(/: give.*/, "") : undefined,
    body: m?.content ?? r.content,
  };
}

function targetTitle(store: Store, m: Message): string {
  const t = targetOfMessage(store, m);
  return t.type === "stream" ? `#${store.channelName(t.channelId) ?? t.channelId} > ${store.topicDisplayName(t.topic)}` : "a direct message";
}

/** !: a reminder about the selected message, at a chosen time, with an optional note. */
export function remindAbout(ctx: ActionContext, m: Message): void {
  const missing = missingFeature(ctx.store.realm.featureLevel, "reminders");
  if (missing) return ctx.notify(missing, "error");
  const notes = missingFeature(ctx.store.realm.featureLevel, "reminderNotes") === undefined;
  const already = remindersOf(ctx.store, m.id).length;
  openWhenForm(ctx, {
    title: "Remind me about this message",
    subtitle: `${m.sender_full_name} in ${targetTitle(ctx.store, m)}${already ? ` · ${already} reminder${already > 1 ? "s" : ""} already set` : ""}`,
    ...(notes ? { note: { label: "Note", limit: ctx.store.realm.maxReminderNoteLength } } : {}),
    onChosen: ({ at, label, note }) => ctx.attempt(() => ctx.account.actions.setReminder(m.id, at, note), `Reminder set for ${label}`),
  });
}

export function RemindersList({ close, kept }: { close: () => void; kept: { cursor: number } }) {
  const { store, account, keymap } = useScreenState();
  const actions = useScreenActions();
  const [state, setState] = useKept(kept);
  const cursor = () => state().cursor;
  const setCursor = (c: number) => setState({ cursor: c });
  const rows = reminderRows(store);

  useKeypress(
    (name) => {
      const now = reminderRows(store);
      const i = clampCursor(cursor(), now.length);
      const row = now[i];
      const action = keymap.action("popup.reminders", name);
      if (action === "reminders.close") close();
      else if (action === "reminders.down") setCursor(clampCursor(i + 1, now.length));
      else if (action === "reminders.up") setCursor(clampCursor(i - 1, now.length));
      else if (action === "reminders.cancel" && row) actions.attempt(() => account.actions.cancelReminder(row.id), "Reminder cancelled.");
      else if (action === "reminders.open" && row) {
        const m = store.messages.byId.get(row.messageId);
        if (!m) return actions.notify("That message is not loaded here: search for it, or wait for the reminder.", "error"), true;
        close();
        actions.openNarrow(targetNarrow(targetOfMessage(store, m)), { focus: "messages", select: m.id });
      }
      return true;
    },
    { priority: 50 },
  );

  return (
    <ItemList
      title={`Reminders (${rows.length})`}
      hint={`${keymap.hint("reminders.open")} open the message · ${keymap.hint("reminders.cancel")} cancel · ${keymap.hint("reminders.close")} close`}
      rows={rows.map((r) => reminderItem(store, r))}
      cursor={clampCursor(cursor(), rows.length)}
      empty={`No reminders. On a message, ${keymap.hint("remindMe")} sets one.`}
    />
  );
}

export function openReminders(ctx: Pick<ScreenActions, "openPopup" | "notify"> & { store: Store }): void {
  const missing = missingFeature(ctx.store.realm.featureLevel, "reminderList");
  if (missing) return ctx.notify(missing, "error");
  const kept = { cursor: 0 };
  ctx.openPopup((close) => <RemindersList close={close} kept={kept} />);
}
