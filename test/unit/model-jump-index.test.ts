import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JumpIndex, type JumpResult } from "../../src/model/jump-index.js";
import { MATCH } from "../../src/render/fuzzy-match.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const general = eg.subscription({ stream_id: 10, name: "general" });
const priya = eg.user({ user_id: 5, full_name: "Priya Raman" });
const jose = eg.user({ user_id: 6, full_name: "José Núñez" });

/** What a row shows, as "kind:label" (topics as "channel>topic"). */
function show(r: JumpResult): string {
  return `${r.target.kind}:${r.context ? `${r.context}>` : ""}${r.label}`;
}

function names(index: JumpIndex, q: string, limit = 10): string[] {
  return index.query(q, limit).map(show);
}

function storeWith(o: Record<string, unknown> = {}) {
  return eg.store({ realm_users: [eg.selfUser, eg.otherUser, priya, jose], ...o });
}

describe("jump finder ranking", () => {
  it("exact beats prefix beats word start beats substring beats fuzzy", () => {
    const s = storeWith({
      subscriptions: ["dense sightings", "redesign", "ux design", "design review", "design"].map((name, i) => eg.subscription({ stream_id: 20 + i, name })),
    });
    const found = new JumpIndex(s).query("design");
    expect(found.map(show)).toEqual(["channel:design", "channel:design review", "channel:ux design", "channel:redesign", "channel:dense sightings"]);
    expect(found.map((r) => r.matchClass)).toEqual([MATCH.exact, MATCH.prefix, MATCH.wordStart, MATCH.substring, MATCH.fuzzy]);
  });

  it("words may be matched by their beginnings: initials and pieces", () => {
    const s = storeWith({ subscriptions: [eg.subscription({ stream_id: 20, name: "release notes" }), eg.subscription({ stream_id: 21, name: "reroll" })] });
    const index = new JumpIndex(s);
    expect(names(index, "design")).toEqual([]);
    expect(index.query("rn")[0]).toMatchObject({ label: "release notes", matchClass: MATCH.wordStart, ranges: [[0, 1], [8, 9]] });
    expect(index.query("rel not")[0]).toMatchObject({ label: "release notes", matchClass: MATCH.wordStart, ranges: [[0, 3], [8, 11]] });
  });

  it("on an equal match, unread comes first, then the most recent activity", () => {
    const s = storeWith({ subscriptions: [general, eg.subscription({ stream_id: 11, name: "ops" }), eg.subscription({ stream_id: 12, name: "web" })] });
    const old = eg.streamMessage({ stream: general, subject: "deploys" });
    const newer = eg.streamMessage({ stream: eg.subscription({ stream_id: 11, name: "ops" }), subject: "deploys", flags: ["read"] });
    const newest = eg.streamMessage({ stream: eg.subscription({ stream_id: 12, name: "web" }), subject: "deploys", flags: ["read"] });
    for (const m of [old, newer, newest]) eg.apply(s, eg.messageEvent(m));
    const index = new JumpIndex(s);
    expect(names(index, "deploys")).toEqual(["topic:general>deploys", "topic:web>deploys", "topic:ops>deploys"]);
    // Read now: recency alone decides, and the index follows without being rebuilt.
    eg.apply(s, eg.flagsEvent("add", "read", [old.id]));
    expect(names(index, "deploys")).toEqual(["topic:web>deploys", "topic:ops>deploys", "topic:general>deploys"]);
    expect(index.query("deploys")[0]).toMatchObject({ unread: 0, lastId: newest.id });
  });

  it("finds a person and their conversation, both", () => {
    const s = storeWith({ recent_private_conversations: [{ user_ids: [5], max_message_id: 4000 }] });
    const found = new JumpIndex(s).query("priya");
    expect(found.map(show)).toEqual(["dm:Priya Raman", "user:Priya Raman"]);
    expect(found[0]!.target).toEqual({ kind: "dm", userIds: [5] });
    expect(found[1]!.target).toEqual({ kind: "user", userId: 5 });
    expect(found[1]!.lastId).toBe(4000); // the person carries the conversation's recency
  });

  it("ignores case and accents, folds full-width letters, and matches wide characters", () => {
    const s = storeWith({ subscriptions: [eg.subscription({ stream_id: 30, name: "設計チーム" })] });
    const index = new JumpIndex(s);
    expect(index.query("jose nunez")[0]).toMatchObject({ label: "José Núñez", matchClass: MATCH.exact });
    expect(index.query("ＪＯＳＥ")[0]).toMatchObject({ label: "José Núñez", ranges: [[0, 4]] });
    expect(index.query("nunez")[0]!.ranges).toEqual([[5, 10]]);
    expect(index.query("チーム")[0]).toMatchObject({ label: "設計チーム", matchClass: MATCH.wordStart, ranges: [[2, 5]] });
  });

  it("channel>topic matches both parts; # keeps places and @ keeps people", () => {
    const s = storeWith({ subscriptions: [general, eg.subscription({ stream_id: 11, name: "design" })] });
    eg.apply(s, eg.messageEvent(eg.streamMessage({ stream: general, subject: "lunch" })));
    eg.apply(s, eg.messageEvent(eg.streamMessage({ stream: eg.subscription({ stream_id: 11, name: "design" }), subject: "lunch" })));
    const index = new JumpIndex(s);
    const [hit, ...rest] = index.query("gen>lun");
    expect(hit).toMatchObject({ target: { kind: "topic", channelId: 10, topic: "lunch" }, context: "general", contextRanges: [[0, 3]], ranges: [[0, 3]] });
    expect(rest).toEqual([]);
    expect(names(index, "#gen")).toEqual(["channel:general"]);
    expect(names(index, "@oth")).toEqual(["user:Other Person"]);
  });

  it("lists views, first among equal matches", () => {
    const s = storeWith({ subscriptions: [eg.subscription({ stream_id: 20, name: "inbound" })] });
    expect(names(new JumpIndex(s), "inb")).toEqual(["view:Inbox", "channel:inbound"]);
    expect(names(new JumpIndex(s), "recent")).toEqual(["view:Recent conversations"]);
  });

  it("with nothing typed, lists conversations by last activity", () => {
    const s = storeWith({ recent_private_conversations: [{ user_ids: [5], max_message_id: 100 }] });
    eg.apply(s, eg.messageEvent(eg.streamMessage({ stream: general, subject: "now" })));
    expect(names(new JumpIndex(s), "")).toEqual(["topic:general>now", "dm:Priya Raman"]);
  });
});

describe("jump finder follows the store", () => {
  it("new people, renamed and deleted channels, new and vanished topics", () => {
    const s = storeWith();
    const index = new JumpIndex(s);
    expect(names(index, "zed")).toEqual([]);
    eg.apply(s, { type: "realm_user", op: "add", person: eg.user({ user_id: 9, full_name: "Zed Quill" }) });
    expect(names(index, "zed")).toEqual(["user:Zed Quill"]);
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 9, full_name: "Zed Ink" } });
    expect(names(index, "zed")).toEqual(["user:Zed Ink"]);
    eg.apply(s, { type: "stream", op: "update", stream_id: 10, property: "name", value: "lobby" });
    expect(names(index, "lobby")).toEqual(["channel:lobby"]);
    expect(names(index, "general")).toEqual([]);
    const m = eg.streamMessage({ stream: general, subject: "fresh topic", flags: ["read"] });
    eg.apply(s, eg.messageEvent(m));
    expect(names(index, "fresh")).toEqual(["topic:lobby>fresh topic"]);
    eg.apply(s, eg.deleteEvent([m.id], { channelId: 10, topic: "fresh topic" }));
    expect(names(index, "fresh")).toEqual([]);
    eg.apply(s, { type: "stream", op: "delete", streams: [{ stream_id: 10, name: "lobby" }] });
    expect(names(index, "lobby")).toEqual([]);
  });

  it("a key typed after a change sees the change (the previous query's matches are not reused across it)", () => {
    const s = storeWith();
    const index = new JumpIndex(s);
    expect(names(index, "fre")).toEqual([]);
    eg.apply(s, eg.messageEvent(eg.streamMessage({ stream: general, subject: "fresh thing" })));
    expect(names(index, "fres")).toEqual(["topic:general>fresh thing"]);
  });

  it("renaming a person renames their conversations", () => {
    const s = storeWith({ recent_private_conversations: [{ user_ids: [5, 6], max_message_id: 100 }] });
    const index = new JumpIndex(s);
    expect(names(index, "priya")).toEqual(["dm:Priya Raman, José Núñez", "user:Priya Raman"]);
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 5, full_name: "Priya Iyer" } });
    expect(names(index, "iyer")).toEqual(["dm:Priya Iyer, José Núñez", "user:Priya Iyer"]);
  });
});
