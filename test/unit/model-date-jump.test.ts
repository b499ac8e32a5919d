import { describe, expect, it } from "vitest";
import { anchorDateParam, DateJump, type DateJumpAnswer, type DateJumpRequest } from "../../src/model/date-jump.js";

/** A narrow's messages as a server would page them (ids ascending), answering the plan's requests. */
function serve(messages: Array<{ id: number; timestamp: number }>, req: DateJumpRequest): DateJumpAnswer {
  if (req.anchor === "newest") return { messages: messages.slice(-req.num_before), found_oldest: false, found_newest: true };
  const from = req.anchor === "oldest" ? 0 : (req.anchor as number);
  const after = messages.filter((m) => m.id >= from).slice(0, req.num_after);
  return { messages: after, found_oldest: from === 0, found_newest: after.length < req.num_after };
}

function run(messages: Array<{ id: number; timestamp: number }>, atSecs: number, extra: { maxRequests?: number } = {}) {
  const jump = new DateJump({ narrow: [], at: atSecs * 1000, featureLevel: 300, ...extra });
  const asked: DateJumpRequest[] = [];
  for (let req = jump.next(); req && asked.length < 100; req = jump.next()) {
    asked.push(req);
    jump.answer(serve(messages, req));
  }
  return { outcome: jump.result()!, asked };
}

describe("the date search on servers without anchor=date", () => {
  it("finds the first message on or after the moment across a sparse id space, in a bounded number of requests", () => {
    // 5,000 messages with ids spread up to a billion, one a minute, with a quiet week in the middle.
    const messages = Array.from({ length: 5000 }, (_, i) => ({ id: 1000 + i * 199_933, timestamp: 1_700_000_000 + i * 60 + (i >= 2500 ? 7 * 86400 : 0) }));
    for (const k of [0, 1, 1234, 2499, 2500, 2501, 4999]) {
      const { outcome, asked } = run(messages, messages[k]!.timestamp - 30);
      expect(outcome, `message ${k}`).toMatchObject({ messageId: messages[k]!.id, via: "search", exact: true });
      expect(asked.length).toBeLessThanOrEqual(30);
      expect(asked.every((r) => r.anchor !== "date" && r.num_after <= 20 && r.num_before <= 1)).toBe(true);
    }
    // In the quiet week: the first message after it.
    expect(run(messages, messages[2499]!.timestamp + 86400).outcome.messageId).toBe(messages[2500]!.id);
  });

  it("an empty narrow, or nothing late enough: no message, after one request", () => {
    expect(run([], 5)).toMatchObject({ outcome: { messageId: undefined, requests: 1 } });
    expect(run([{ id: 1, timestamp: 10 }], 11)).toMatchObject({ outcome: { messageId: undefined, requests: 1 } });
  });

  it("asks for anchor=date in one request where the server has it, and searches after a refusal", () => {
    const jump = new DateJump({ narrow: [{ operator: "channel", operand: 5 }], at: Date.parse("2026-03-01T13:00:00.250Z"), featureLevel: 496 });
    expect(jump.next()).toEqual({ anchor: "date", anchor_date: "2026-03-01T13:00:00+00:00", include_anchor: true, num_before: 50, num_after: 100, narrow: [{ operator: "channel", operand: 5 }] });
    jump.refused();
    expect(jump.next()).toMatchObject({ anchor: "newest", num_before: 1, num_after: 0 });
    expect(anchorDateParam(0)).toBe("1970-01-01T00:00:00+00:00");
  });

  it("takes the server's anchor from the one-request answer; a huge anchor means none is late enough", () => {
    const found = new DateJump({ narrow: [], at: 1000, featureLevel: 496 });
    found.answer({ anchor: 7, messages: [{ id: 5, timestamp: 0 }, { id: 7, timestamp: 2 }], found_oldest: true, found_newest: true });
    expect(found.result()).toMatchObject({ messageId: 7, via: "anchor_date", requests: 1 });
    expect(found.next()).toBeUndefined();
    const none = new DateJump({ narrow: [], at: 1000, featureLevel: 496 });
    none.answer({ anchor: 10_000_000_000_000_000, messages: [{ id: 5, timestamp: 0 }], found_oldest: true, found_newest: true });
    expect(none.result()!.messageId).toBeUndefined();
  });
});
