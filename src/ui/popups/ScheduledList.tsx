/**
 * Scheduled messages (W, or the palette): the user's messages waiting on the
 * server for their time, soonest first, each with where it goes, when, and its
 * state — scheduled, sending (its time has come), or failed as the server
 * reports it (the notification bot's message says why). e edits the text, r
 * gives it a new time (a failed one goes out again then), s sends it now, x
 * cancels it (after a question), Enter opens its conversation. The list
 * follows the server's events, so another client's changes show here too.
 */
import { useEffect, useState } from "react";
import { narrowMessages, narrowTitle } from "../../model/selectors.js";
import { scheduledRows, type ScheduledRow } from "../../model/selectors-personal.js";
import type { Store } from "../../model/store.js";
import { formatDateTime } from "../../render/time.js";
import type { ActionContext } from "../app-context.js";
import { useScreenActions, useScreenState, type ScreenActions } from "../contexts.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { openConfirm } from "./Confirm.js";
import { openEditText } from "./EditText.js";
import { ItemList, clampCursor, useKept, type ItemRow } from "./ItemList.js";
import { openWhenForm } from "./when-form.js";

export const STATE_WORDS = { scheduled: "scheduled", due: "sending now…", failed: "" } as const;
export const FAILED_TEXT = "not sent at its time: give it a new time (r) or send it now (s)";

/**
 * Why deliveries failed, as the service says it: the notification bot's direct message "The message
 * you scheduled for <time:…> was not sent because of the following error: > …", by the time it names
 * (UNIX seconds). Only the messages loaded here are read.
 */
export function failureReasons(store: Store): Map<number, string> {
  const out = new Map<number, string>();
  for (const m of narrowMessages(store, { kind: "all-dms" })) {
    if (!m.sender_email.startsWith("notification-bot@")) continue;
    const found = /^The message you scheduled for <time:([^>]+)> was not sent because of the following error:\s*\n\s*> ?(.+)/.exec(m.content);
    const at = found ? Date.parse(found[1]!) : NaN;
    if (found && !Number.isNaN(at)) out.set(Math.floor(at / 1000), found[2]!.trim());
  }
  return out;
}

export function scheduledItem(store: Store, r: ScheduledRow, reasons: ReadonlyMap<number, string> = new Map()): ItemRow {
  const reason = reasons.get(r.at);
  return {
    key: String(r.id),
    title: `${formatDateTime(r.at)} · ${narrowTitle(store, r.target)}`,
    detail: r.state === "failed" ? "failed:" : STATE_WORDS[r.state],
    problem: r.state === "failed" ? (reason ? `${reason} — ${FAILED_TEXT.replace(/^not sent at its time: /, "")}` : FAILED_TEXT) : undefined,
    body: r.content,
  };
}

/** Re-renders every few seconds, so a message whose time has come says so. */
function useClock(ms: number): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

export function ScheduledList({ close, kept }: { close: () => void; kept: { cursor: number } }) {
  const { store, keymap } = useScreenState();
  const actions = useScreenActions();
  const [state, setState] = useKept(kept);
  const cursor = () => state().cursor;
  const setCursor = (c: number) => setState({ cursor: c });
  useClock(2000);
  const rows = scheduledRows(store);
  const reasons = rows.some((r) => r.state === "failed") ? failureReasons(store) : new Map<number, string>();
  const at = clampCursor(cursor(), rows.length);

  useKeypress(
    (name) => {
      const now = scheduledRows(store);
      const i = clampCursor(cursor(), now.length);
      const row = now[i];
      const action = keymap.action("popup.scheduled", name);
      if (action === "scheduled.close") close();
      else if (action === "scheduled.down") setCursor(clampCursor(i + 1, now.length));
      else if (action === "scheduled.up") setCursor(clampCursor(i - 1, now.length));
      else if (row && action) onRow(actions.now(), row, action, close);
      return true;
    },
    { priority: 50 },
  );

  const hint = ["edit", "reschedule", "sendNow", "cancel"].map((a) => `${keymap.hint(`scheduled.${a}`)} ${a === "sendNow" ? "send now" : a}`).join(" · ");
  return <ItemList title={`Scheduled messages (${rows.length})`} hint={`${hint} · ${keymap.hint("scheduled.close")} close`} rows={rows.map((r) => scheduledItem(store, r, reasons))} cursor={at} empty={`Nothing scheduled. In the compose box, ${keymap.hint("sendLater")} sends a message later.`} />;
}

function onRow(ctx: ActionContext, row: ScheduledRow, action: string, close: () => void): void {
  const account = ctx.account;
  const where = narrowTitle(ctx.store, row.target);
  switch (action) {
    case "scheduled.edit":
      return openEditText(ctx, {
        title: "Edit the scheduled message",
        subtitle: `To ${where} at ${formatDateTime(row.at)}`,
        initial: row.content,
        save: (text) => account.actions.editScheduledMessage(row.id, { content: text }),
        saved: "Scheduled message changed.",
      });
    case "scheduled.reschedule":
      return openWhenForm(ctx, {
        title: "Reschedule",
        subtitle: `To ${where}`,
        ...(row.state === "failed" ? {} : { current: row.at }),
        onChosen: ({ at, label }) => ctx.attempt(() => account.actions.rescheduleMessage(row.id, at), `Rescheduled for ${label}`),
      });
    case "scheduled.sendNow":
      return ctx.attempt(() => account.actions.sendScheduledNow(row.id), `Sending it now to ${where}`);
    case "scheduled.cancel":
      return openConfirm(ctx, {
        title: "Cancel this scheduled message?",
        lines: [`To ${where} at ${formatDateTime(row.at)}; it is not sent, and its text is gone.`],
        action: "cancel it",
        danger: true,
        onConfirm: () => ctx.attempt(() => account.actions.cancelScheduledMessage(row.id), "Scheduled message cancelled."),
      });
    case "scheduled.open":
      close();
      return ctx.openNarrow(row.target, { focus: "messages" });
  }
}

export function openScheduledList(ctx: Pick<ScreenActions, "openPopup">): void {
  const kept = { cursor: 0 };
  ctx.openPopup((close) => <ScheduledList close={close} kept={kept} />);
}
