/**
 * Recent conversations on a fake session: what it loads from the server (the
 * newest messages, as the service's recent view), the rows by last activity
 * with unread counts and marks, the filters, Enter, and new messages arriving.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schemas/common.js";
import { VISIBILITY } from "../../src/model/topics.js";
import { glyphs } from "../../src/render/glyphs.js";
import { RecentView } from "../../src/ui/views/RecentView.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

const general = eg.subscription({ stream_id: 10, name: "general", color: "#76ce90" });
const design = eg.subscription({ stream_id: 11, name: "design", color: "#e4523d" });

/** Three conversations: design > logo (oldest, read), a DM with Third (unread), general > lunch (newest, one unread). */
function conversations(): Message[] {
  const logo = eg.streamMessage({ stream: design, subject: "logo", timestamp: eg.fixedTime - 3000, flags: ["read"] });
  const dm = eg.dmMessage({ from: eg.thirdUser, timestamp: eg.fixedTime - 2000 });
  const lunch1 = eg.streamMessage({ stream: general, subject: "lunch", timestamp: eg.fixedTime - 1000, flags: ["read"] });
  const lunch2 = eg.streamMessage({ stream: general, subject: "lunch", timestamp: eg.fixedTime, sender_id: eg.thirdUser.user_id, sender_full_name: eg.thirdUser.full_name });
  return [logo, dm, lunch1, lunch2];
}

async function openRecent(extra: Record<string, unknown> = {}) {
  const messages = conversations();
  const unread = messages.filter((m) => !m.flags.includes("read"));
  const fake = fakeSession({
    register: { subscriptions: [general, design], realm_users: [eg.selfUser, eg.otherUser, eg.thirdUser], unread_msgs: eg.unreadMessages(unread), ...extra },
    ui: { focus: "messages", view: { kind: "screen", id: "recent" } },
    answers: { "GET messages": { result: "success", msg: "", messages: [...messages].reverse(), found_oldest: true, found_newest: true, found_anchor: false, anchor: 0, history_limited: false } },
  });
  const screen = await renderOnFake(fake, <RecentView width={90} height={12} focused />);
  unmount = screen.unmount;
  await screen.until(() => screen.frame().includes("logo"), "the loaded conversations");
  return { fake, screen, messages };
}

/** The list's rows (the header line, which names the filters, left out). */
const rowsOf = (frame: string) =>
  frame
    .split("\n")
    .slice(1)
    .filter((l) => /#general|#design|@ /.test(l));

describe("recent conversations", () => {
  it("loads the newest messages as the service's recent view does, and lists every conversation by last activity with counts", async () => {
    const { fake, screen } = await openRecent();
    const [method, path, params] = fake.requests()[0]!;
    expect([method, path]).toEqual(["GET", "messages"]);
    expect(params).toMatchObject({ anchor: "newest", num_before: 1000, num_after: 0 });
    const rows = rowsOf(screen.frame());
    expect(rows[0]).toMatch(/#general . lunch.*Third.*1/); // newest first, who took part, one unread
    expect(rows[1]).toMatch(/@ Third Person/);
    expect(rows[2]).toMatch(/#design . logo/); // read conversations are listed too
    expect(rows).toHaveLength(3);
  });

  it("marks followed topics; muted ones show, marked, after m", async () => {
    const { screen } = await openRecent({
      user_topics: [
        { stream_id: 11, topic_name: "logo", visibility_policy: VISIBILITY.followed, last_updated: 1 },
        { stream_id: 10, topic_name: "lunch", visibility_policy: VISIBILITY.muted, last_updated: 1 },
      ],
    });
    const logo = rowsOf(screen.frame()).find((l) => l.includes("logo"))!;
    expect(logo).toContain("★");
    expect(screen.frame()).not.toContain("lunch");
    await screen.press("m");
    await screen.until(() => screen.frame().includes("lunch"), "the muted topic shown");
    expect(rowsOf(screen.frame()).find((l) => l.includes("lunch"))).toContain(glyphs().muted);
  });

  it("u keeps only unread ones, c only the channel under the cursor, / what is typed; C clears", async () => {
    const { screen } = await openRecent();
    await screen.press("u");
    await screen.until(() => rowsOf(screen.frame()).length === 2, "only the unread conversations");
    expect(screen.frame()).toContain("unread");
    expect(screen.frame()).not.toContain("logo");
    await screen.press("C");
    await screen.until(() => rowsOf(screen.frame()).length === 3, "every conversation again");
    await screen.press("G", "c"); // the last row: design > logo
    await screen.until(() => rowsOf(screen.frame()).length === 1, "design's topics only");
    expect(screen.frame()).toContain("#design");
    await screen.press("C", "/", "t", "h", "i");
    await screen.until(() => rowsOf(screen.frame()).length === 2, "conversations where Third took part");
    await screen.press("\r");
    expect(rowsOf(screen.frame()).every((l) => /Third/.test(l))).toBe(true);
  });

  it("Enter opens the conversation under the cursor at its first unread message", async () => {
    const { fake, screen, messages } = await openRecent();
    await screen.press("j", "\r");
    const open = fake.recorded.find((r) => r.name === "openNarrow");
    expect(open?.args[0]).toEqual({ kind: "dm", userIds: [eg.thirdUser.user_id] });
    expect(open?.args[1]).toMatchObject({ focus: "messages", select: messages[1]!.id });
  });

  it("a message arriving moves its conversation to the top, with its count", async () => {
    const { fake, screen } = await openRecent();
    const news = eg.streamMessage({ stream: design, subject: "logo", timestamp: eg.fixedTime + 60 });
    eg.apply(fake.store, eg.messageEvent(news));
    await screen.until(() => /#design . logo.*1\s*$/.test(rowsOf(screen.frame())[0] ?? ""), "design > logo on top with one unread");
  });
});
