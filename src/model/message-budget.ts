/**
 * Keeps the loaded messages within a budget of bytes. Over it, the lists left longest ago
 * (never the one on screen, nor one being fetched) are dropped, and with them every message
 * no remaining list holds; a narrow whose list was dropped is fetched again when it is shown.
 * Still over, the list on screen loses its older end, up to a margin above where the reader is.
 * Sizes are estimates of the heap a message takes (its text at two bytes a character, plus
 * the fixed cost of its fields).
 */
import type { Message } from "../api/schemas/common.js";
import type { Messages } from "./messages.js";

export const MESSAGE_BUDGET_BYTES = 8 * 1024 * 1024;

/** Messages the list on screen keeps above the reader's first one, whatever the budget says. */
export const KEEP_ABOVE_READER = 200;

const MESSAGE_OVERHEAD = 900; // the object, its ~20 fields, flags and empty arrays

export function messageBytes(m: Message): number {
  let n = MESSAGE_OVERHEAD + 2 * (m.content.length + (m.subject?.length ?? 0) + m.sender_full_name.length + m.sender_email.length);
  n += 120 * m.reactions.length;
  if (Array.isArray(m.display_recipient)) n += 160 * m.display_recipient.length;
  return n;
}

export class MessageBudget {
  /** Bytes counted since the last trim: the exact total is recomputed only when this passes `nextCheck`. */
  private estimate = 0;
  private nextCheck: number;

  constructor(
    private readonly messages: Messages,
    /** Bytes of messages to keep at most (beside those of the list on screen). */
    public budget = MESSAGE_BUDGET_BYTES,
  ) {
    this.nextCheck = budget;
  }

  /** Sets the budget (tests, and users who want more kept); trims when over the new one. */
  setBudget(bytes: number): void {
    this.budget = bytes;
    this.nextCheck = bytes;
    if (this.estimate > bytes) this.trim();
  }

  /** Counts messages just added (fetched into list `into`, or live); trims when the estimate says the budget may be passed. */
  added(ms: Iterable<Message>, into?: string): boolean {
    for (const m of ms) this.estimate += messageBytes(m);
    return this.estimate > this.nextCheck ? this.trim(into) : false;
  }

  /**
   * Drops lists, least recently shown first, until what remains fits; returns whether anything
   * went. The list on screen and `keep` (the one just fetched into) stay.
   */
  trim(keep?: string): boolean {
    const { messages } = this;
    const candidates = [...messages.lists.values()]
      .filter((l) => l.key !== messages.shown && l.key !== keep && l.status !== "fetching")
      .sort((a, b) => (a.shownAt ?? 0) - (b.shownAt ?? 0));
    const held = (): Set<number> => {
      const ids = new Set<number>();
      for (const l of messages.lists.values()) for (const id of l.ids) ids.add(id);
      return ids;
    };
    const total = (ids: Set<number>): number => {
      let n = 0;
      for (const id of ids) {
        const m = messages.byId.get(id);
        if (m) n += messageBytes(m);
      }
      return n;
    };
    let ids = held();
    let bytes = total(ids);
    let dropped = false;
    for (const l of candidates) {
      if (bytes <= this.budget * 0.75) break;
      messages.lists.delete(l.key);
      dropped = true;
      ids = held();
      bytes = total(ids);
    }
    // Still over with every other list gone: the list on screen keeps what is near the reader,
    // its older end goes (fetched again when the reader scrolls up to it). Not while a fetch
    // into it runs, whose answer must join the list where it was asked for.
    const shown = messages.shown === undefined ? undefined : messages.lists.get(messages.shown);
    const reader = messages.reader;
    if (bytes > this.budget * 0.75 && shown && shown.status !== "fetching" && reader?.key === shown.key && shown.key !== keep) {
      if (messages.cutOlderEnd(shown, reader.id, KEEP_ABOVE_READER) > 0) {
        dropped = true;
        ids = held();
        bytes = total(ids);
      }
    }
    for (const id of [...messages.byId.keys()]) {
      if (!ids.has(id)) {
        messages.forget(id);
        dropped = true;
      }
    }
    this.estimate = bytes;
    // What cannot be dropped (the list on screen) may stay over: check again after a quarter more.
    this.nextCheck = Math.max(this.budget, bytes * 1.25);
    return dropped;
  }
}
