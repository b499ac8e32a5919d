/**
 * Reading without an account (a spectator of an organization's web-public
 * channels): the account's actions that would write, or that read what only
 * an account has, answer with one line instead of asking the server, which
 * would refuse them anyway ("Not logged in"). The screen says the same line
 * before it opens anything that would lead there (ui/spectator.ts); this is
 * the floor under it, for every other way in (the palette, popups).
 */
import type { AccountActions } from "./account-handle.js";
import { failed } from "./actions/result.js";
import type { OutboxEntry, SendTarget } from "./outbox-file.js";

/** What a spectator is told wherever writing would need an account. */
export const SPECTATOR_LINE = "Reading as a spectator: log in to write";

/** Actions a spectator may use: they read what anybody may read, or only move the view. */
const READING: ReadonlySet<keyof AccountActions> = new Set<keyof AccountActions>([
  "addressToOpen", "saveLink", "fetchUploadBytes", "messageSource", "messageHistory", "readReceipts", "lookUpUser", "lookUpUserByEmail",
  "keyPressed", "keepPlace", "fetchTopics", "editText", "composeOpened", "composeClosed",
]);

/** The compose box's ways out that answer nothing: nothing is journaled or told. */
const SILENT: ReadonlySet<keyof AccountActions> = new Set<keyof AccountActions>(["composeChanged", "editChanged", "editDropped"]);

/**
 * The actions of a spectator: reading ones as they are, the others answering
 * `SPECTATOR_LINE` (a message "sent" comes back failed, never queued).
 */
export function spectatorActions(actions: AccountActions, now: () => number = Date.now): AccountActions {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(actions) as [keyof AccountActions, unknown][]) {
    if (READING.has(name)) out[name] = fn;
    else if (SILENT.has(name)) out[name] = () => undefined;
    else out[name] = () => Promise.resolve(failed(SPECTATOR_LINE, "SPECTATOR"));
  }
  out["send"] = (target: SendTarget, text: string): OutboxEntry => ({
    id: `spectator-${now()}`,
    target,
    content: text,
    createdAt: now(),
    state: "failed",
    attempts: 0,
    floorId: 0,
    error: SPECTATOR_LINE,
  });
  return Object.freeze(out) as AccountActions;
}
