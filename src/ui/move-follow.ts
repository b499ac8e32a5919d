/**
 * Where the screen goes when messages move (an update_message event with a
 * new topic or channel), decided as the service's web app decides, with its
 * propagate mode: when the topic being viewed moved on with the selected
 * message ("change_later" or "change_all": this and later messages, or the
 * whole topic) the view follows it there, the selected message still
 * selected; a compose box writing to the old topic writes to the new one.
 * When only some messages left ("change_one", or later ones while an earlier
 * one is selected) the view stays, and the status line says where they went.
 * One case more than the web app: a view left with nothing in it (the only
 * message moved, even with "change_one") follows the messages, since an
 * empty topic is not where anyone means to be.
 *
 * Moves made by the user say where the message went wherever they are; moves
 * by others are said only to those viewing the topic they left.
 */
import type { Move } from "../model/moves.js";
import { topicKey, type Narrow } from "../model/narrow.js";
import { narrowTitle } from "../model/selectors.js";
import type { Store } from "../model/store.js";
import { sanitizeInline } from "../render/sanitize.js";
import { RESOLVED_PREFIX } from "../model/apply-messages.js";

export interface MoveOutcome {
  /** The topic to open instead of the one being viewed, and the message to select in it. */
  follow?: { narrow: Narrow; select: number | undefined };
  /** A compose box writing to the old topic writes to this one now. */
  retarget?: { channelId: number; topic: string };
  notice?: string;
}

export interface MoveView {
  /** The open narrow. */
  narrow: Narrow | undefined;
  /** The selected message in it (undefined: none chosen, the newest followed). */
  selected: number | undefined;
  /** Where the compose box writes, when it is open on a new message (not an edit). */
  composing?: { channelId: number; topic: string };
}

function sameTopic(a: { channelId: number; topic: string }, b: { channelId: number; topic: string }): boolean {
  return a.channelId === b.channelId && topicKey(a.topic) === topicKey(b.topic);
}

function unresolved(topic: string): string {
  return topic.startsWith(RESOLVED_PREFIX) ? topic.slice(RESOLVED_PREFIX.length) : topic;
}

/** What the screen does about a move, after the store has applied it. */
export function moveOutcome(store: Store, view: MoveView, move: Move): MoveOutcome {
  const mine = move.by === store.selfId;
  const forward = move.mode === "change_later" || move.mode === "change_all";
  const where = sanitizeInline(narrowTitle(store, { kind: "topic", ...move.to }));
  const who = move.by === undefined ? "Someone" : sanitizeInline(store.userName(move.by));
  const resolving = move.from.channelId === move.to.channelId && unresolved(move.from.topic) === unresolved(move.to.topic);
  const count = move.ids.length === 1 ? "a message" : `${move.ids.length} messages`;
  const out: MoveOutcome = {};
  if (forward && view.composing && sameTopic(view.composing, move.from)) out.retarget = move.to;

  const n = view.narrow;
  const viewing = n?.kind === "topic" && sameTopic({ channelId: n.channelId, topic: n.topic }, move.from);
  if (viewing) {
    const list = store.messages.list(n);
    const emptied = !!list && list.ids.length === 0 && list.foundOldest && list.foundNewest;
    // Nothing chosen yet means the newest, which "change_later" and "change_all" always take along.
    const withSelection = view.selected === undefined || move.ids.includes(view.selected);
    const canGo = store.channelName(move.to.channelId) !== undefined;
    if (canGo && ((forward && withSelection) || emptied)) {
      // The oldest moved, by a loop: a whole topic's move can list more ids than a call takes arguments.
      const select = view.selected !== undefined && move.ids.includes(view.selected) ? view.selected : move.ids.reduce((a, b) => (b < a ? b : a), Infinity);
      out.follow = { narrow: { kind: "topic", ...move.to }, select };
      if (resolving) {
        const how = move.to.topic.startsWith(RESOLVED_PREFIX) ? "resolved" : "unresolved";
        out.notice = mine ? `Topic marked ${how}.` : `${who} marked this topic ${how}.`;
      } else {
        out.notice = mine ? `${move.edited ? "Message edited and moved" : "Moved"} to ${where}; showing it there.` : `${who} moved ${move.mode === "change_all" || emptied ? "this topic" : count} to ${where}; showing it there.`;
      }
      return out;
    }
    if (!mine) {
      out.notice = resolving ? `${who} marked ${count} of this topic ${move.to.topic.startsWith(RESOLVED_PREFIX) ? "resolved" : "unresolved"}.` : `${who} moved ${count} from here to ${where}.`;
      return out;
    }
  }
  if (mine && !resolving) out.notice = `${move.edited ? "Message edited and moved" : move.ids.length === 1 ? "Message moved" : `${move.ids.length} messages moved`} to ${where}.`;
  return out;
}
