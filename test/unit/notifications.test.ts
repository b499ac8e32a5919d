/** Which new messages notify, what the notification says, and at most one a second. */
import { beforeEach, describe, expect, it } from "vitest";
import { NoteCoalescer, noteFor, notificationFor, previewText, type Note } from "../../src/sync/upkeep/notifications.js";
import { noteSequence } from "../../src/ui/notifications.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());

const general = () => eg.subscription({ stream_id: 10, name: "general" });
const loud = (o: Record<string, unknown> = {}) => eg.subscription({ stream_id: 12, name: "alerts", desktop_notifications: true, ...o });

function storeWith(o: Record<string, unknown> = {}) {
  return eg.store({
    subscriptions: [general(), loud(), eg.subscription({ stream_id: 13, name: "beeps", audible_notifications: true })],
    user_settings: { enable_stream_desktop_notifications: false, enable_stream_audible_notifications: false, wildcard_mentions_notify: true },
    ...o,
  });
}

describe("notificationFor", () => {
  it("a direct message to me notifies (bell and desktop)", () => {
    const s = storeWith();
    expect(notificationFor(s, eg.dmMessage(), [])).toEqual({ reason: "dm", audible: true, desktop: true });
  });

  it("my own messages, read ones, muted users' and those in muted topics do not", () => {
    const s = storeWith({ muted_users: [{ id: 3, timestamp: 0 }] });
    expect(notificationFor(s, eg.dmMessage({ from: eg.selfUser, to: [eg.otherUser] }), [])).toBeUndefined();
    expect(notificationFor(s, eg.dmMessage(), ["read"])).toBeUndefined();
    s.mutedUsers.add(3);
    expect(notificationFor(s, eg.dmMessage({ from: eg.thirdUser }), [])).toBeUndefined();
    // A mention in a muted topic stays quiet.
    eg.apply(s, { type: "user_topic", stream_id: 10, topic_name: "noise", last_updated: 1, visibility_policy: 1 });
    expect(notificationFor(s, eg.streamMessage({ subject: "noise" }), ["mentioned"])).toBeUndefined();
    expect(notificationFor(s, eg.streamMessage({ subject: "other" }), ["mentioned"])?.reason).toBe("mention");
  });

  it("a plain channel message notifies only where the subscription (or the user's default) asks", () => {
    const s = storeWith();
    expect(notificationFor(s, eg.streamMessage(), [])).toBeUndefined();
    expect(notificationFor(s, eg.streamMessage({ stream: loud() }), [])).toEqual({ reason: "channel", audible: false, desktop: true });
    const beeps = eg.subscription({ stream_id: 13, name: "beeps" });
    expect(notificationFor(s, eg.streamMessage({ stream: beeps }), [])).toEqual({ reason: "channel", audible: true, desktop: false });
    // null on the subscription means the user's default for channels.
    const byDefault = storeWith({ user_settings: { enable_stream_desktop_notifications: true } });
    expect(notificationFor(byDefault, eg.streamMessage(), [])?.reason).toBe("channel");
    const optedOut = storeWith({
      subscriptions: [general(), loud({ desktop_notifications: false })],
      user_settings: { enable_stream_desktop_notifications: true },
    });
    expect(notificationFor(optedOut, eg.streamMessage({ stream: loud() }), [])).toBeUndefined();
  });

  it("wildcard mentions follow the subscription's setting, else the user's", () => {
    const s = storeWith({
      subscriptions: [general(), eg.subscription({ stream_id: 14, name: "quiet", wildcard_mentions_notify: false })],
      user_settings: { wildcard_mentions_notify: true },
    });
    expect(notificationFor(s, eg.streamMessage(), ["wildcard_mentioned"])?.reason).toBe("wildcard");
    expect(notificationFor(s, eg.streamMessage(), ["stream_wildcard_mentioned"])?.reason).toBe("wildcard");
    const quiet = eg.subscription({ stream_id: 14, name: "quiet" });
    expect(notificationFor(s, eg.streamMessage({ stream: quiet }), ["wildcard_mentioned"])).toBeUndefined();
    // A personal mention notifies regardless.
    expect(notificationFor(s, eg.streamMessage({ stream: quiet }), ["mentioned"])?.reason).toBe("mention");
    const off = storeWith({ user_settings: { wildcard_mentions_notify: false } });
    expect(notificationFor(off, eg.streamMessage(), ["topic_wildcard_mentioned"])).toBeUndefined();
  });

  it("followed topics notify when the user asks for followed-topic notifications", () => {
    const s = storeWith({ user_settings: { enable_followed_topic_desktop_notifications: true } });
    eg.apply(s, { type: "user_topic", stream_id: 10, topic_name: "launch", last_updated: 1, visibility_policy: 3 });
    expect(notificationFor(s, eg.streamMessage({ subject: "launch" }), [])).toEqual({ reason: "followed", audible: false, desktop: true });
    expect(notificationFor(s, eg.streamMessage({ subject: "other" }), [])).toBeUndefined();
  });
});

describe("the notification text", () => {
  it("names the sender and the conversation; the preview is one clean line", () => {
    const s = storeWith();
    const dm = eg.dmMessage({ content: "Can you **review** the\n\ndeploy for @**Self User|1**?" });
    const note = noteFor(s, dm, { reason: "dm", audible: true, desktop: true });
    expect(note.title).toBe("Other Person");
    expect(note.body).toBe("Can you review the deploy for @Self User?");
    const ch = noteFor(s, eg.streamMessage({ stream: loud(), subject: "" }), { reason: "channel", audible: false, desktop: true });
    expect(ch.title).toBe("Other Person in #alerts > general chat");
  });

  it("hostile bytes in names and bodies cannot end the escape sequence or start another", () => {
    const s = storeWith();
    const m = eg.dmMessage({ content: "hi\x07\x1b]0;pwned\x07\x1b[2J\x9b31m there", sender_full_name: "Eve\x1b]9;fake\x07" });
    const seq = noteSequence(noteFor(s, m, { reason: "dm", audible: true, desktop: true }), { bell: true, desktop: true });
    // Exactly: BEL, one OSC 9, one OSC 777 — nothing else starts a sequence.
    expect(seq.startsWith("\x07\x1b]9;")).toBe(true);
    expect(seq.match(/\x1b/g)).toHaveLength(2);
    expect(seq.match(/\x07/g)).toHaveLength(3);
    expect(seq).not.toContain("\x9b");
    expect(seq).not.toMatch(/\x1b\]0;/);
    expect(seq).toContain("Eve: hi there"); // the readable text stays
  });

  it("follows the bell and desktop settings, and the user's choice to hide DM content", () => {
    const s = storeWith({ user_settings: { pm_content_in_desktop_notifications: false } });
    const note = noteFor(s, eg.dmMessage({ content: "secret plans" }), { reason: "dm", audible: true, desktop: true });
    expect(note.body).toBe("New direct message");
    expect(noteSequence(note, { bell: false, desktop: true })).not.toContain("\x07\x1b]9");
    expect(noteSequence(note, { bell: true, desktop: false })).toBe("\x07");
    expect(noteSequence(note, { bell: false, desktop: false })).toBe("");
    expect(noteSequence({ ...note, audible: false }, { bell: true, desktop: true }).startsWith("\x1b]9;")).toBe(true);
  });

  it("previews are bounded", () => {
    expect(previewText("x".repeat(500)).length).toBeLessThanOrEqual(100);
    expect(previewText("```py\nprint(1)\n```\nafter")).toBe("[code] after");
  });
});

describe("NoteCoalescer", () => {
  const note = (id: number, title = `t${id}`): Note => ({ messageId: id, title, body: `b${id}`, audible: true, desktop: true });

  it("sends the first at once and coalesces a burst into one at the end of the second", () => {
    const c = new NoteCoalescer(1000);
    expect(c.offer(note(1), 10_000)?.messageId).toBe(1);
    expect(c.offer(note(2), 10_100)).toBeUndefined();
    expect(c.offer(note(3, "Ben"), 10_200)).toBeUndefined();
    expect(c.dueAt()).toBe(11_000);
    expect(c.flush(10_900)).toBeUndefined();
    const merged = c.flush(11_000);
    expect(merged?.title).toBe("2 new messages — Ben");
    expect(merged?.body).toBe("b3");
    expect(c.dueAt()).toBeUndefined();
    // Right after a flush, the next waits for its second too.
    expect(c.offer(note(4), 11_500)).toBeUndefined();
    expect(c.flush(12_000)?.title).toBe("t4");
    expect(c.offer(note(5), 13_500)?.messageId).toBe(5);
  });
});
