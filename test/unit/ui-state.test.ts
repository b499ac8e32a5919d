/** The UI state's places in views: opening a view lands afresh, the landing is kept unless the reader chose meanwhile. */
import { describe, expect, it } from "vitest";
import { narrowKey, type Narrow } from "../../src/model/narrow.js";
import { INITIAL_UI, selectionOf, uiReducer } from "../../src/ui/ui-state.js";

const topic: Narrow = { kind: "topic", channelId: 10, topic: "lunch" };
const key = narrowKey(topic);

describe("places in views", () => {
  it("opening a view without a message forgets the old place: it lands again at its first unread (or newest) one", () => {
    let s = uiReducer(INITIAL_UI, { type: "open", narrow: topic, select: 42 });
    expect(selectionOf(s, topic)).toEqual({ id: 42, follow: false });
    s = uiReducer(s, { type: "open", narrow: { kind: "feed" } });
    s = uiReducer(s, { type: "open", narrow: topic });
    expect(selectionOf(s, topic)).toEqual({ follow: true, initial: true });
  });

  it("where the view landed is kept, unless the reader chose a message meanwhile", () => {
    let s = uiReducer(INITIAL_UI, { type: "open", narrow: topic });
    s = uiReducer(s, { type: "land", key, id: 7, follow: false });
    expect(selectionOf(s, topic)).toEqual({ id: 7, follow: false });
    // A second landing (the first unread moved on as messages were read) does not move the view.
    s = uiReducer(s, { type: "land", key, id: 9, follow: false });
    expect(selectionOf(s, topic)).toEqual({ id: 7, follow: false });
    s = uiReducer(s, { type: "select", id: 3, follow: false });
    s = uiReducer(s, { type: "land", key, id: 9, follow: false });
    expect(selectionOf(s, topic)).toEqual({ id: 3, follow: false });
  });
});
