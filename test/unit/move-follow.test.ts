import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseEvent, type UpdateMessageEvent } from "../../src/api/schemas/events.js";
import type { Narrow } from "../../src/model/narrow.js";
import type { Store } from "../../src/model/store.js";
import { moveOf } from "../../src/model/moves.js";
import { moveOutcome, type MoveView } from "../../src/ui/move-follow.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const general = eg.subscription({ stream_id: 10, name: "general" });
const design = eg.subscription({ stream_id: 11, name: "design" });
const lunch: Narrow = { kind: "topic", channelId: 10, topic: "lunch" };

/** A store whose topic #general > lunch holds messages 1, 2, 3, all loaded. */
function org(): Store {
  const s = eg.store({ subscriptions: [general, design] });
  const messages = [1, 2, 3].map((id) => eg.streamMessage({ id, stream: general, subject: "lunch", flags: ["read"] }));
  s.addFetched(lunch, messages, { foundOldest: true, foundNewest: true, direction: "around" });
  return s;
}

/** Applies a move event to the store as the update machine does, and returns the move it makes. */
function move(s: Store, o: Parameters<typeof eg.moveEvent>[0], extra: Record<string, unknown> = {}) {
  const raw = { ...eg.moveEvent(o), ...extra };
  eg.apply(s, raw);
  return moveOf(parseEvent(eg.event(raw)) as UpdateMessageEvent)!;
}

const viewing = (selected?: number): MoveView => ({ narrow: lunch, selected });

describe("following moved messages", () => {
  it("follows the whole topic moved by someone else, the selected message still selected, and says so", () => {
    const s = org();
    const m = move(s, { ids: [1, 2, 3], from: { channelId: 10, topic: "lunch" }, to: { channelId: 11, topic: "food" }, mode: "change_all" });
    expect(moveOutcome(s, viewing(2), m)).toEqual({
      follow: { narrow: { kind: "topic", channelId: 11, topic: "food" }, select: 2 },
      notice: "Other Person moved this topic to #design > food; showing it there.",
    });
  });

  it("follows this-and-later moves when the selected message went, stays when it did not", () => {
    const s = org();
    const m = move(s, { ids: [2, 3], from: { channelId: 10, topic: "lunch" }, to: { topic: "dinner" }, mode: "change_later" });
    expect(moveOutcome(s, viewing(3), m).follow).toEqual({ narrow: { kind: "topic", channelId: 10, topic: "dinner" }, select: 3 });
    // Message 1 stays in "lunch": the view stays with it, and says where the others went.
    expect(moveOutcome(s, viewing(1), m)).toEqual({ notice: "Other Person moved 2 messages from here to #general > dinner." });
    // Nothing chosen means the newest, which went along.
    expect(moveOutcome(s, viewing(undefined), m).follow?.narrow).toEqual({ kind: "topic", channelId: 10, topic: "dinner" });
  });

  it("follows a topic of 200,000 messages moved, nothing selected, to its oldest moved message", () => {
    const s = org();
    const ids = Array.from({ length: 200_000 }, (_, i) => 200_003 - i);
    const m = move(s, { ids, from: { channelId: 10, topic: "lunch" }, to: { channelId: 11, topic: "food" }, mode: "change_all" });
    expect(moveOutcome(s, viewing(undefined), m).follow).toEqual({ narrow: { kind: "topic", channelId: 11, topic: "food" }, select: 4 });
  });

  it("stays when one message of several moves, and says where it went", () => {
    const s = org();
    const m = move(s, { ids: [2], from: { channelId: 10, topic: "lunch" }, to: { channelId: 11, topic: "lunch" }, mode: "change_one" });
    expect(moveOutcome(s, viewing(2), m)).toEqual({ notice: "Other Person moved a message from here to #design > lunch." });
    expect(m.to).toEqual({ channelId: 11, topic: "lunch" }); // a move between channels keeps the topic
  });

  it("follows even one message when nothing is left where it was", () => {
    const s = eg.store({ subscriptions: [general, design] });
    s.addFetched(lunch, [eg.streamMessage({ id: 7, stream: general, subject: "lunch" })], { foundOldest: true, foundNewest: true, direction: "around" });
    const m = move(s, { ids: [7], from: { channelId: 10, topic: "lunch" }, to: { topic: "brunch" }, mode: "change_one" }, { user_id: eg.selfUser.user_id });
    expect(moveOutcome(s, viewing(7), m)).toEqual({
      follow: { narrow: { kind: "topic", channelId: 10, topic: "brunch" }, select: 7 },
      notice: "Moved to #general > brunch; showing it there.",
    });
  });

  it("says where the user's own move went wherever they are; others' moves only to those viewing the topic", () => {
    const s = org();
    const mine = move(s, { ids: [1], from: { channelId: 10, topic: "lunch" }, to: { channelId: 11 }, mode: "change_one" }, { user_id: eg.selfUser.user_id, content: "edited" });
    expect(moveOutcome(s, { narrow: { kind: "feed" }, selected: undefined }, mine)).toEqual({ notice: "Message edited and moved to #design > lunch." });
    const theirs = move(s, { ids: [2], from: { channelId: 10, topic: "lunch" }, to: { channelId: 11 }, mode: "change_one" });
    expect(moveOutcome(s, { narrow: { kind: "feed" }, selected: undefined }, theirs)).toEqual({});
  });

  it("follows a topic marked resolved, and says who did", () => {
    const s = org();
    const m = move(s, { ids: [1, 2, 3], from: { channelId: 10, topic: "lunch" }, to: { topic: "✔ lunch" }, mode: "change_all" });
    expect(moveOutcome(s, viewing(1), m)).toEqual({
      follow: { narrow: { kind: "topic", channelId: 10, topic: "✔ lunch" }, select: 1 },
      notice: "Other Person marked this topic resolved.",
    });
  });

  it("points a compose box writing to the old topic at the new one when the topic moves on", () => {
    const s = org();
    const m = move(s, { ids: [1, 2, 3], from: { channelId: 10, topic: "lunch" }, to: { topic: "food" }, mode: "change_all" });
    const composing = { channelId: 10, topic: "Lunch" }; // topics compare without case
    expect(moveOutcome(s, { narrow: { kind: "feed" }, selected: undefined, composing }, m).retarget).toEqual({ channelId: 10, topic: "food" });
    const one = move(org(), { ids: [1], from: { channelId: 10, topic: "lunch" }, to: { topic: "food" }, mode: "change_one" });
    expect(moveOutcome(s, { narrow: { kind: "feed" }, selected: undefined, composing }, one).retarget).toBeUndefined();
  });

  it("finds no move in an edit of the content only", () => {
    const e = parseEvent(eg.event({ type: "update_message", user_id: 2, message_id: 1, message_ids: [1], flags: [], stream_id: 10, content: "new text" }));
    expect(moveOf(e as UpdateMessageEvent)).toBeUndefined();
  });
});
