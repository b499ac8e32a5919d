/**
 * Send later from the compose box: the text as it is, to the box's
 * conversation, at a time chosen in the "When?" form. The server keeps it
 * (it survives restarts and shows in every client's list) and sends it then.
 * The box empties only once the server has it and the text is still the one
 * scheduled; a refusal is said and the text stays.
 */
import { sanitizeInline } from "../render/sanitize.js";
import type { SendTarget } from "../sync/account-handle.js";
import type { ActionContext } from "./app-context.js";
import { openWhenForm } from "./popups/when-form.js";

export function scheduleFromCompose(ctx: ActionContext, compose: { target: SendTarget; label: string }, text: string, scheduled: () => void): void {
  openWhenForm(ctx, {
    title: "Send later",
    subtitle: `To ${sanitizeInline(compose.label)}, in your time zone`,
    onChosen: ({ at, label }) => {
      void ctx.account.actions.scheduleMessage(compose.target, text, at).then((r) => {
        if (!r.ok) return ctx.notify(`Not scheduled: ${r.error.message} — your text is kept`, "error");
        scheduled();
        ctx.notify(`Scheduled for ${label} (${ctx.keymap.hint("scheduledList", "the palette")} lists scheduled messages)`);
      });
    },
  });
}
