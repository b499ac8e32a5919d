/**
 * Time and things kept for later: send later from the compose box (Ctrl-S;
 * the box handles it, in hooks/use-compose.ts), saved snippets (Ctrl-N in the
 * box),
 * a reminder about the selected message (!), the scheduled messages (W), and
 * the keys of their popups.
 */
import type { Feature } from "../app-context.js";
import { remindAbout } from "../popups/RemindersList.js";
import { openScheduledList } from "../popups/ScheduledList.js";
import { openSnippets } from "../popups/SnippetsList.js";

export const laterFeature: Feature = {
  name: "later",
  bindings: [
    { action: "sendLater", keys: ["C-s"], context: "compose", help: "Send later: tomorrow 9:00, Monday 9:00 or a time you type" },
    { action: "insertSnippet", keys: ["C-n"], context: "compose", help: "Insert a saved snippet (search by title)" },
    { action: "remindMe", keys: ["!"], context: "messages", help: "Remind me about this message at a chosen time" },
    { action: "scheduledList", keys: ["W"], context: "global", help: "Scheduled messages: edit, reschedule, send now, cancel" },
    { action: "scheduled.close", keys: ["escape", "q", "W"], context: "popup.scheduled", help: "Close" },
    { action: "scheduled.down", keys: ["j", "down"], context: "popup.scheduled", help: "Next scheduled message" },
    { action: "scheduled.up", keys: ["k", "up"], context: "popup.scheduled", help: "Previous scheduled message" },
    { action: "scheduled.edit", keys: ["e"], context: "popup.scheduled", help: "Edit its text" },
    { action: "scheduled.reschedule", keys: ["r"], context: "popup.scheduled", help: "Give it a new time (a failed one goes out again then)" },
    { action: "scheduled.sendNow", keys: ["s"], context: "popup.scheduled", help: "Send it now" },
    { action: "scheduled.cancel", keys: ["x"], context: "popup.scheduled", help: "Cancel it (asks first)" },
    { action: "scheduled.open", keys: ["enter"], context: "popup.scheduled", help: "Open its conversation" },
    { action: "reminders.close", keys: ["escape", "q"], context: "popup.reminders", help: "Close" },
    { action: "reminders.down", keys: ["j", "down"], context: "popup.reminders", help: "Next reminder" },
    { action: "reminders.up", keys: ["k", "up"], context: "popup.reminders", help: "Previous reminder" },
    { action: "reminders.cancel", keys: ["x"], context: "popup.reminders", help: "Cancel the reminder" },
    { action: "reminders.open", keys: ["enter"], context: "popup.reminders", help: "Open the message" },
    { action: "snippets.close", keys: ["escape"], context: "popup.snippets", help: "Close" },
    { action: "snippets.down", keys: ["down", "C-n"], context: "popup.snippets", help: "Next snippet" },
    { action: "snippets.up", keys: ["up", "C-p"], context: "popup.snippets", help: "Previous snippet" },
    { action: "snippets.choose", keys: ["enter"], context: "popup.snippets", help: "Insert it in the compose box (from the palette: edit it)" },
    { action: "snippets.new", keys: ["C-o"], context: "popup.snippets", help: "New snippet" },
    { action: "snippets.edit", keys: ["C-e"], context: "popup.snippets", help: "Edit the snippet (title, then text)" },
    { action: "snippets.delete", keys: ["C-d"], context: "popup.snippets", help: "Delete the snippet (asks first)" },
    { action: "snippets.erase", keys: ["backspace"], context: "popup.snippets", help: "Erase a character of the title searched" },
    { action: "snippets.clear", keys: ["C-u"], context: "popup.snippets", help: "Clear the title searched" },
    { action: "editText.save", keys: ["enter"], context: "popup.editText", help: "Save the text" },
    { action: "editText.newline", keys: ["C-j", "S-enter", "M-enter"], context: "popup.editText", help: "New line" },
    { action: "editText.cancel", keys: ["escape"], context: "popup.editText", help: "Give up (nothing is changed)" },
    { action: "editText.lineUp", keys: ["up"], context: "popup.editText", help: "Cursor up a line (as the text is shown)" },
    { action: "editText.lineDown", keys: ["down"], context: "popup.editText", help: "Cursor down a line" },
  ],
  actions: {
    insertSnippet: (ctx) => openSnippets(ctx, ctx.latest().compose?.key),
    remindMe: (ctx) => {
      const m = ctx.selected;
      if (!m) ctx.notify("Select a message first (j/k in the message pane)");
      else remindAbout(ctx, m);
    },
    scheduledList: (ctx) => openScheduledList(ctx),
  },
};
