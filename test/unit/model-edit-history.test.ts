import { describe, expect, it } from "vitest";
import { editSteps, type HistorySnapshot } from "../../src/model/edit-history.js";

describe("edit history as steps", () => {
  it("the original, a content edit with its word diff, a move of topic, a move of channel, a resolve", () => {
    const history: HistorySnapshot[] = [
      { topic: "plans", content: "Lunch at noon", rendered_content: "<p>Lunch at noon</p>", timestamp: 100, user_id: 5 },
      { topic: "plans", content: "Lunch at one", prev_content: "Lunch at noon", rendered_content: "<p>Lunch at one</p>", prev_rendered_content: "<p>Lunch at noon</p>", timestamp: 200, user_id: 5 },
      { topic: "lunch", prev_topic: "plans", timestamp: 300, user_id: 7 },
      { topic: "lunch", stream: 12, prev_stream: 11, timestamp: 400, user_id: 7 },
      { topic: "✔ lunch", prev_topic: "lunch", timestamp: 500, user_id: 8 },
    ];
    const steps = editSteps(history, 12);
    expect(steps.map((s) => [s.index, s.timestamp, s.userId, s.channelId, s.topic, s.content])).toEqual([
      [0, 100, 5, 11, "plans", "Lunch at noon"],
      [1, 200, 5, 11, "plans", "Lunch at one"],
      [2, 300, 7, 11, "lunch", "Lunch at one"],
      [3, 400, 7, 12, "lunch", "Lunch at one"],
      [4, 500, 8, 12, "✔ lunch", "Lunch at one"],
    ]);
    expect(steps[0]!.diff).toBeUndefined();
    expect(steps[0]!.move).toBeUndefined();
    expect(steps[1]!.diff!.runs).toEqual([
      { op: "equal", text: "Lunch at " },
      { op: "delete", text: "noon" },
      { op: "insert", text: "one" },
    ]);
    expect(steps[1]!.move).toBeUndefined();
    expect(steps[2]).toMatchObject({ move: { kind: "move", from: { channelId: 11, topic: "plans" }, to: { channelId: 11, topic: "lunch" } } });
    expect(steps[2]!.diff).toBeUndefined();
    expect(steps[3]!.move).toEqual({ kind: "move", from: { channelId: 11, topic: "lunch" }, to: { channelId: 12, topic: "lunch" } });
    expect(steps[4]!.move).toEqual({ kind: "resolve", from: { channelId: 12, topic: "lunch" }, to: { channelId: 12, topic: "✔ lunch" } });
  });

  it("an edit that changes content and moves at once; unresolving; a direct message; unknown editors", () => {
    const steps = editSteps(
      [
        { topic: "✔ bug", content: "fixed", timestamp: 1, user_id: 3 },
        { topic: "bug", prev_topic: "✔ bug", content: "not fixed", prev_content: "fixed", timestamp: 2, user_id: null },
      ],
      9,
    );
    expect(steps[1]).toMatchObject({ userId: null, move: { kind: "unresolve" }, diff: { runs: [{ op: "insert", text: "not " }, { op: "equal", text: "fixed" }] } });
    const dm = editSteps([{ topic: "", content: "hi", timestamp: 1 }, { topic: "", content: "hello", prev_content: "hi", timestamp: 2, user_id: 4 }], undefined);
    expect(dm.map((s) => s.channelId)).toEqual([undefined, undefined]);
    expect(dm[0]!.userId).toBeNull();
  });

  it("a message never edited is its original alone", () => {
    expect(editSteps([{ topic: "t", content: "c", timestamp: 1, user_id: 2 }], 5)).toEqual([{ index: 0, timestamp: 1, userId: 2, content: "c", topic: "t", channelId: 5 }]);
  });
});
