/**
 * Jump to a date (Ctrl-T) on a fake session: the form reads what is typed as
 * it is typed, refuses what it cannot read, asks the server with anchor=date
 * (a server of today's feature level) and opens the narrow at the message found.
 */
import type { ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { anchorDateParam } from "../../src/model/date-jump.js";
import type { Narrow } from "../../src/model/narrow.js";
import { FeatureKeys, fakeSession, renderOnFake, type FakeSession } from "../fixtures/fake-session.js";
import * as eg from "../fixtures/example.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

const general = eg.subscription({ stream_id: 10, name: "general" });
const lunch: Narrow = { kind: "topic", channelId: 10, topic: "lunch" };

async function pressOnFake(fake: FakeSession, ...keys: string[]) {
  const screen = await renderOnFake(fake, <FeatureKeys />);
  await screen.press(...keys);
  await screen.unmount();
}

async function openedPopup(fake: FakeSession) {
  const open = fake.recorded.find((r) => r.name === "openPopup");
  expect(open, "a popup was opened").toBeDefined();
  const screen = await renderOnFake(fake, (open!.args[0] as (close: () => void) => ReactNode)(() => undefined));
  unmount = screen.unmount;
  return screen;
}

describe("jump to a date", () => {
  it("reads the date as it is typed, asks the server for the first message on or after it, and opens the narrow there", async () => {
    const found = eg.streamMessage({ stream: general, subject: "lunch", timestamp: Date.UTC(2025, 2, 1, 9) / 1000 });
    const fake = fakeSession({
      register: { subscriptions: [general] },
      narrow: lunch,
      ui: { focus: "messages", view: { kind: "narrow", narrow: lunch } },
      answers: { "GET messages": { result: "success", msg: "", anchor: found.id, messages: [found], found_anchor: true, found_oldest: false, found_newest: false, history_limited: false } },
    });
    await pressOnFake(fake, "\u0014"); // Ctrl-T
    const screen = await openedPopup(fake);
    await screen.until(() => screen.frame().includes("Jump to a date"), "the form");
    await screen.press(..."2025-03-01");
    await screen.until(() => screen.frame().includes("Sat, Mar 1, 2025, 00:00"), "what the date reads as");
    await screen.press("\r");
    await screen.until(() => fake.names().includes("openNarrow"), "the narrow opened");
    const [, path, params] = fake.requests().find((r) => r[1] === "messages")!;
    expect(path).toBe("messages");
    expect(params).toMatchObject({ anchor: "date" });
    // The first minute of March 1st in the local time zone, told to the server with its offset.
    expect((params as Record<string, unknown>).anchor_date).toBe(anchorDateParam(new Date(2025, 2, 1).getTime()));
    const open = fake.recorded.find((r) => r.name === "openNarrow")!;
    expect(open.args).toEqual([lunch, { focus: "messages", select: found.id }]);
  });

  it("says what it cannot read, and keeps the form open", async () => {
    const fake = fakeSession({ register: { subscriptions: [general] }, narrow: lunch, ui: { focus: "messages", view: { kind: "narrow", narrow: lunch } } });
    await pressOnFake(fake, "\u0014");
    const screen = await openedPopup(fake);
    await screen.press(..."someday", "\r");
    await screen.until(() => screen.frame().includes("Could not read"), "the reason");
    expect(fake.requests()).toEqual([]);
  });

  it("outside a narrow, says to open one first", async () => {
    const fake = fakeSession({ ui: { focus: "messages", view: { kind: "screen", id: "inbox" } } });
    await pressOnFake(fake, "\u0014");
    const notice = fake.recorded.find((r) => r.name === "notify");
    expect(String(notice?.args[0])).toContain("Open a channel, topic or conversation first");
    expect(fake.names()).not.toContain("openPopup");
  });
});
