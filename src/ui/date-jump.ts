/**
 * Jump to a date (Ctrl-T in a narrow): asks for a date or time as people type
 * it (`2026-03-01`, `yesterday`, `monday 14:00`, in the local time zone; the
 * form shows what it reads as it is typed), then opens the narrow at its
 * first message on or after that moment (anchor=date where the server's
 * feature level has it, a search by id on older servers: sync/date-jump.ts).
 */
import { narrowTitle } from "../model/selectors.js";
import { narrowToApi, type Narrow } from "../model/narrow.js";
import { parseDateInput } from "../render/date-input.js";
import { sanitizeInline } from "../render/sanitize.js";
import type { ActionContext } from "./app-context.js";
import { openForm } from "./popups/Form.js";

/** The narrows a date jump makes sense in: a list of messages in time (not a search's ranked results). */
function datable(n: Narrow | undefined): n is Narrow {
  return n !== undefined && n.kind !== "search";
}

export function askDateJump(ctx: ActionContext, now: () => number = Date.now): void {
  const narrow = ctx.narrow;
  if (ctx.ui.view.kind !== "narrow" || !datable(narrow)) {
    ctx.notify("Open a channel, topic or conversation first: the jump to a date opens it at a day and time", "error");
    return;
  }
  openForm(ctx, {
    title: "Jump to a date",
    subtitle: sanitizeInline(narrowTitle(ctx.store, narrow)),
    fields: [
      {
        kind: "text",
        name: "when",
        label: "When",
        hint: "2026-03-01, yesterday, monday 14:00…",
        preview: (v) => {
          const r = parseDateInput(v, { now: now() });
          return v.trim() === "" ? undefined : r.ok ? `→ ${r.label}` : undefined;
        },
        validate: (v) => {
          const r = parseDateInput(v, { now: now() });
          return r.ok ? undefined : r.error;
        },
      },
    ],
    onSubmit: (values) => {
      const r = parseDateInput(String(values.when ?? ""), { now: now() });
      if (r.ok) void jumpToDate(ctx, narrow, r.at, r.label);
    },
  });
}

/** Finds the first message on or after `at` and opens the narrow there (the newest when nothing is that late). */
export async function jumpToDate(ctx: Pick<ActionContext, "account" | "store" | "openNarrow" | "notify">, narrow: Narrow, at: number, label: string): Promise<void> {
  ctx.notify(`Looking for ${label}…`);
  const r = await ctx.account.actions.findDate(narrowToApi(narrow, ctx.store.realm.featureLevel), at);
  if (!r.ok) {
    ctx.notify(`Could not jump to ${label}: ${sanitizeInline(r.error.message)}`, "error");
    return;
  }
  const found = r.value.messageId;
  ctx.openNarrow(narrow, { focus: "messages", select: found });
  if (found === undefined) ctx.notify(`Nothing on or after ${label}: the newest messages are shown`);
  else ctx.notify(`${label}${r.value.exact ? "" : " (near it: the server took long to search)"}`);
}
