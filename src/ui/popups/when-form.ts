/**
 * "When?" for sending and reminding later: a form with the quick choices
 * (tomorrow 9:00, Monday 9:00, in an hour, in 20 minutes), each shown with the
 * moment it stands for, and a line to type any time in the local zone (read by
 * render/date-input.ts, looking ahead; what is typed wins over the choice).
 * The moment is read again when the form is applied, so "in 20 minutes" counts
 * from then. An optional note line serves reminders.
 */
import { parseDateInput } from "../../render/date-input.js";
import { formatDateTime } from "../../render/time.js";
import type { ActionContext } from "../app-context.js";
import { openForm, type Field, type FormValues } from "./Form.js";

/** The quick choices, as the parser reads them. */
export const QUICK_CHOICES: readonly { input: string; label: string }[] = [
  { input: "tomorrow 9:00", label: "Tomorrow 9:00" },
  { input: "monday 9:00", label: "Monday 9:00" },
  { input: "in 1 hour", label: "In an hour" },
  { input: "in 20 minutes", label: "In 20 minutes" },
];

export interface WhenChoice {
  /** The moment, UNIX seconds (rounded up: never earlier than what was read). */
  at: number;
  /** How it reads: "Mon, Nov 30, 2026, 09:00". */
  label: string;
  /** The note typed, when the form asked for one. */
  note?: string;
}

export interface WhenSpec {
  title: string;
  subtitle?: string;
  /** Ask for a note too (reminders), with the longest note allowed. */
  note?: { label: string; limit?: number };
  /** The moment already chosen (rescheduling): shown first among the choices. */
  current?: number;
  onChosen: (choice: WhenChoice) => void;
}

const TYPED = "typed";

/** The moment the form's values stand for, or why they stand for none. */
export function readWhen(values: FormValues, now: number, timeZone?: string): { ok: true; at: number; label: string } | { ok: false; error: string } {
  const typed = typeof values["typed"] === "string" ? values["typed"].trim() : "";
  const choice = typeof values["when"] === "string" ? values["when"] : TYPED;
  if (typed === "" && choice.startsWith("at:")) {
    const at = Number(choice.slice(3));
    return at * 1000 > now ? { ok: true, at, label: formatDateTime(at, { timeZone }) } : { ok: false, error: `${formatDateTime(at, { timeZone })} has passed: choose a time ahead.` };
  }
  const input = typed !== "" ? typed : choice === TYPED ? "" : choice;
  const r = parseDateInput(input, { now, timeZone, direction: "future" });
  if (!r.ok) return r;
  const at = Math.ceil(r.at / 1000);
  return { ok: true, at, label: formatDateTime(at, { timeZone }) };
}

export function openWhenForm(ctx: ActionContext, spec: WhenSpec): void {
  const now = ctx.store.now();
  const options = QUICK_CHOICES.map((c) => {
    const r = parseDateInput(c.input, { now, direction: "future" });
    return { value: c.input, label: r.ok ? `${c.label} · ${r.label}` : c.label };
  });
  if (spec.current !== undefined) options.unshift({ value: `at:${spec.current}`, label: `As it is · ${formatDateTime(spec.current)}` });
  options.push({ value: TYPED, label: "The time typed below" });
  const fields: Field[] = [
    { kind: "choice", name: "when", label: "When", options, initial: options[0]!.value },
    {
      kind: "text",
      name: "typed",
      label: "Or type",
      hint: "friday 14:30, in 2 hours, dec 1 10:00",
      preview: (v) => {
        if (!v.trim()) return undefined;
        const r = parseDateInput(v, { now: ctx.store.now(), direction: "future" });
        return r.ok ? `→ ${r.label}` : "?";
      },
    },
  ];
  const limit = spec.note?.limit;
  if (spec.note) {
    fields.push({
      kind: "text",
      name: "note",
      label: spec.note.label,
      hint: "optional",
      validate: (v) => (limit !== undefined && [...v.trim()].length > limit ? `The note is longer than the ${limit} characters allowed.` : undefined),
    });
  }
  openForm(ctx, {
    title: spec.title,
    subtitle: spec.subtitle,
    fields,
    check: (values) => {
      const r = readWhen(values, ctx.store.now());
      return r.ok ? undefined : r.error;
    },
    onSubmit: (values) => {
      const r = readWhen(values, ctx.store.now());
      if (!r.ok) return ctx.notify(r.error, "error");
      const note = typeof values["note"] === "string" && values["note"].trim() ? values["note"].trim() : undefined;
      spec.onChosen({ at: r.at, label: r.label, ...(note !== undefined ? { note } : {}) });
    },
  });
}
