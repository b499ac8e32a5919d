/**
 * The jump finder (Ctrl-P) on a fake session: what it lists with nothing
 * typed, how typing ranks, the sigils, and where Enter goes.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ReactNode } from "react";
import { VISIBILITY } from "../../src/model/topics.js";
import * as eg from "../fixtures/example.js";
import { FeatureKeys, fakeSession, renderOnFake, type FakeSession } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

const general = eg.subscription({ stream_id: 10, name: "general" });
const design = eg.subscription({ stream_id: 11, name: "design" });
const maya = eg.user({ user_id: 7, email: "maya@example.test", full_name: "Maya Okafor" });

function session(): FakeSession {
  const deploy = eg.streamMessage({ stream: general, subject: "deploys", timestamp: eg.fixedTime - 100 });
  const logo = eg.streamMessage({ stream: design, subject: "logo review", timestamp: eg.fixedTime });
  const old = eg.streamMessage({ stream: design, subject: "deploy window", timestamp: eg.fixedTime - 500, flags: ["read"] });
  const fake = fakeSession({
    register: {
      subscriptions: [general, design],
      realm_users: [eg.selfUser, eg.otherUser, maya],
      unread_msgs: eg.unreadMessages([deploy, logo]),
      user_topics: [{ stream_id: 11, topic_name: "logo review", visibility_policy: VISIBILITY.followed, last_updated: 1 }],
    },
    loaded: { narrow: { kind: "feed" }, messages: [old, deploy, logo] },
    ui: { focus: "messages" },
  });
  // design's topic list, as fetched: a read topic the unread data does not name.
  fake.store.setTopics(11, [
    { name: "logo review", max_id: logo.id },
    { name: "deploy window", max_id: old.id },
  ]);
  return fake;
}

/** Ctrl-P on the fake screen, then the popup it opened drawn on the same screen. */
async function openFinder(fake: FakeSession) {
  const keys = await renderOnFake(fake, <FeatureKeys />);
  await keys.press("\u0010"); // Ctrl-P
  const open = fake.recorded.find((r) => r.name === "openPopup");
  expect(open, "Ctrl-P opens a popup").toBeDefined();
  await keys.unmount();
  let closed = 0;
  const screen = await renderOnFake(fake, (open!.args[0] as (close: () => void) => ReactNode)(() => closed++));
  unmount = screen.unmount;
  return { screen, closed: () => closed };
}

/** The result rows: the lines below the title and the line typed into. */
function rows(frame: string): string[] {
  const lines = frame.split("\n");
  const title = lines.findIndex((l) => l.includes("Go to"));
  return lines.slice(title + 2).filter((l) => l.startsWith("│") && /[#›@≡]/.test(l));
}

describe("the jump finder", () => {
  it("with nothing typed, lists conversations by last activity with their unread counts and marks", async () => {
    const { screen } = await openFinder(session());
    await screen.until(() => screen.frame().includes("logo review"), "the conversations");
    const r = rows(screen.frame());
    const logo = r.findIndex((l) => l.includes("logo review"));
    const deploys = r.findIndex((l) => l.includes("deploys"));
    expect(logo).toBeGreaterThanOrEqual(0);
    expect(logo).toBeLessThan(deploys); // the newest first
    expect(r[logo]).toMatch(/★\s+1/); // followed, one unread
  });

  it("typing ranks what matches: a person by the start of a word, places with #, the channel>topic form", async () => {
    const { screen } = await openFinder(session());
    await screen.press(..."oka");
    await screen.until(() => /▌ @ Maya Okafor/.test(screen.frame()), "Maya first");
    await screen.press("\u0015", ..."#deploy"); // Ctrl-U clears
    await screen.until(() => rows(screen.frame()).length === 2, "the two deploy topics");
    expect(screen.frame()).not.toContain("Maya");
    // The unread topic ranks above the read one on an equal match.
    expect(rows(screen.frame())[0]).toContain("deploys");
    await screen.press("\u0015", ..."des>dep");
    await screen.until(() => rows(screen.frame()).length === 1 && screen.frame().includes("deploy window"), "design's deploy topic only");
  });

  it("Enter goes to the chosen topic at its first unread message; Esc closes", async () => {
    const fake = session();
    const { screen, closed } = await openFinder(fake);
    await screen.press(..."deploys", "\r");
    const open = fake.recorded.find((r) => r.name === "openNarrow");
    expect(open?.args[0]).toEqual({ kind: "topic", channelId: 10, topic: "deploys" });
    expect(closed()).toBe(1);
    const again = await openFinder(session());
    await again.screen.press("\u001b");
    expect(again.closed()).toBe(1);
  });

  it("a screen of the table is found by name and opened", async () => {
    const fake = session();
    const { screen } = await openFinder(fake);
    await screen.press(..."recent conv", "\r");
    const dispatched = fake.recorded.filter((r) => r.name === "dispatch").map((r) => r.args[0]);
    expect(dispatched).toContainEqual({ type: "screen", id: "recent" });
  });
});
