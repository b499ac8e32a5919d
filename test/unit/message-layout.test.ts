import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schemas/common.js";
import { condense, EXPAND_KEY } from "../../src/render/condense.js";
import { loadMarkdown } from "../../src/render/markdown.js";
import { displayWidth } from "../../src/render/wrap.js";
import { encodeHashComponent, emojiCode, messageLink } from "../../src/ui/features/message-actions.js";
import {
  layoutMessage,
  layoutWindow,
  renderContext,
  type Block,
  type LayoutOptions,
} from "../../src/ui/message-layout.js";
import { emojiChoices } from "../../src/ui/popups/EmojiPicker.js";
import { historyLines } from "../../src/ui/edit-history-lines.js";
import { cardLines, localTimeText } from "../../src/ui/popups/UserCard.js";
import { LayoutCache } from "../../src/ui/layout-cache.js";
import * as eg from "../fixtures/example.js";

const T = 1_763_600_000; // the builders' message time
const opts = (o: Partial<LayoutOptions> = {}): LayoutOptions => ({ width: 60, showRecipients: true, color: false, timeZone: "UTC", now: T, ...o });

function layoutAll(store: ReturnType<typeof eg.store>, messages: Message[], o: LayoutOptions, ctx = renderContext(store, o.color, "UTC", false)): Block[] {
  return messages.map((m, i) => layoutMessage(store, m, messages[i - 1], o, ctx));
}
const texts = (b: Block) => b.lines.map((l) => l.text);
const styles = (b: Block) => b.lines.map((l) => l.style);

beforeAll(async () => {
  await loadMarkdown();
});
beforeEach(() => {
  eg.resetIds();
});

describe("message layout", () => {
  it("groups consecutive messages of one sender; a new sender, a long pause or a new topic shows the sender again", () => {
    const store = eg.store();
    const msgs = [
      eg.streamMessage({ content: "one", timestamp: T }),
      eg.streamMessage({ content: "two", timestamp: T + 60 }),
      eg.streamMessage({ content: "three", timestamp: T + 60 + 11 * 60 }),
      eg.streamMessage({ content: "four", timestamp: T + 60 + 12 * 60, sender_id: 1, sender_full_name: "Self User" }),
      eg.streamMessage({ content: "five", timestamp: T + 60 + 13 * 60, sender_id: 1, sender_full_name: "Self User", subject: "other" }),
    ];
    const [a, b, c, d, e] = layoutAll(store, msgs, opts());
    expect(styles(a!)).toEqual(["day", "recipient", "sender", "body"]);
    expect(texts(a!)[2]).toBe("Other Person  00:53");
    expect(styles(b!)).toEqual(["body"]); // grouped under the first
    expect(styles(c!)).toEqual(["sender", "body"]); // 11 minutes later
    expect(texts(d!)[0]).toMatch(/^Self User {2}/);
    expect(styles(e!)).toEqual(["recipient", "sender", "body"]);
    expect(texts(e!)[0]).toBe("#general › other");
  });

  it("puts a day separator between days and names the empty topic with the organization's name for it", () => {
    const store = eg.store();
    const msgs = [eg.streamMessage({ timestamp: T - 2 * 86_400 }), eg.streamMessage({ timestamp: T, subject: "" })];
    const [a, b] = layoutAll(store, msgs, opts());
    expect(texts(a!)[0]).toBe("Tuesday, November 18");
    expect(texts(b!).slice(0, 2)).toEqual(["Today", "#general › general chat"]);
  });

  it("shows the recipient header with the subscription's colour, and DMs with the other people's names", () => {
    const store = eg.store({ subscriptions: [eg.subscription({ stream_id: 10, name: "general", color: "#c2726a" })] });
    const [s, d] = layoutAll(store, [eg.streamMessage(), eg.dmMessage({ to: [eg.selfUser, eg.thirdUser] })], opts());
    const header = s!.lines.find((l) => l.style === "recipient")!;
    expect(header.color).toBe("#c2726a");
    expect(texts(d!)).toContain("You and Other Person, Third Person");
    const [topicOnly] = layoutAll(store, [eg.streamMessage()], opts({ showRecipients: false }));
    expect(styles(topicOnly!)).not.toContain("recipient");
  });

  it("marks edited, moved and starred messages, also when grouped without a sender line", () => {
    const store = eg.store();
    const first = eg.streamMessage({ last_edit_timestamp: T + 5 });
    const second = eg.streamMessage({ timestamp: T + 30, last_moved_timestamp: T + 40 });
    store.messages.starred.add(second.id);
    const [a, b] = layoutAll(store, [first, second], opts());
    expect(texts(a!)).toContain("Other Person  00:53 (edited)");
    expect(b!.lines.at(-1)).toMatchObject({ style: "note", text: "★ (moved)" });
  });

  it("shows reactions with counts, the reader's own in brackets, custom emoji by name, wrapped to the width", () => {
    const store = eg.store({ realm_emoji: { "77": eg.realmEmoji({ id: "77", name: "shipit" }) } });
    const m = eg.streamMessage({
      reactions: [
        { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji", user_id: 2 },
        { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji", user_id: 1 },
        { emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji", user_id: 3 },
        { emoji_name: "shipit", emoji_code: "77", reaction_type: "realm_emoji", user_id: 3 },
      ],
    });
    const [b] = layoutAll(store, [m], opts());
    const line = b!.lines.find((l) => l.style === "reactions")!;
    expect(line.text).toBe("[👍 2]  🎉 1  :shipit: 1"); // two spaces between chips, the reader's own too
    expect(line.segments).toEqual([
      { text: "👍 2", mine: true },
      { text: "🎉 1", mine: false },
      { text: ":shipit: 1", mine: false },
    ]);
    const [narrow] = layoutAll(store, [m], opts({ width: 20 }));
    const lines = narrow!.lines.filter((l) => l.style === "reactions");
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(displayWidth(l.text)).toBeLessThanOrEqual(18);
  });

  it("keeps spoilers closed until the message's spoilers are opened", () => {
    const store = eg.store();
    const m = eg.streamMessage({ content: "look:\n```spoiler The ending\nthe butler did it\n```" });
    const [closed] = layoutAll(store, [m], opts());
    expect(texts(closed!).join("\n")).toContain("▶ The ending (spoiler)");
    expect(texts(closed!).join("\n")).not.toContain("butler");
    const [open] = layoutAll(store, [m], opts({ openSpoilers: [m.id] }));
    expect(texts(open!).join("\n")).toContain("▼ The ending (spoiler)");
    expect(texts(open!).join("\n")).toContain("the butler did it");
  });

  it("draws a long message condensed, with what is left out and the key, and whole once the reader asks", () => {
    const store = eg.store();
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i} of the log`);
    const m = eg.streamMessage({ content: lines.join("\n") });
    const [condensed] = layoutAll(store, [m], opts());
    const text = texts(condensed!).join("\n");
    expect(text).toContain("line 0 of the log");
    expect(text).not.toContain("line 299 of the log");
    const hidden = [...m.content].length - [...condense(m.content)!.text].length;
    expect(text).toContain(`… ${hidden.toLocaleString("en-US")} more characters · ${EXPAND_KEY} shows all`);
    // Rebound in the settings: the note names the key the keymap has.
    const [rebound] = layoutAll(store, [m], opts({ expandKey: "z" }));
    expect(texts(rebound!).join("\n")).toContain("more characters · z shows all");
    const [whole] = layoutAll(store, [m], opts({ expanded: [m.id] }));
    expect(texts(whole!).join("\n")).toContain("line 299 of the log");
    expect(texts(whole!).join("\n")).not.toContain("more characters");
  });

  it("wraps bodies to the pane's width", () => {
    const store = eg.store();
    const m = eg.streamMessage({ content: "word ".repeat(60).trim() });
    for (const width of [40, 80, 120]) {
      const [b] = layoutAll(store, [m], opts({ width }));
      const body = b!.lines.filter((l) => l.style === "body");
      for (const l of body) expect(displayWidth(l.text)).toBeLessThanOrEqual(width - 2);
      expect(body.length).toBeGreaterThanOrEqual(Math.ceil((60 * 5) / (width - 2)));
    }
  });

  it("highlights mentions of the reader more strongly than other mentions, and flags the sender line", () => {
    const store = eg.store();
    const ctx = renderContext(store, true, "UTC", false);
    const m = eg.streamMessage({ content: "@**Self User** and @**Third Person**", flags: ["mentioned"] });
    const [b] = layoutAll(store, [m], opts({ color: true }), ctx);
    const body = b!.lines.find((l) => l.style === "body")!.text;
    const self = body.slice(0, body.indexOf("@Self User"));
    const other = body.slice(body.indexOf("and"), body.indexOf("@Third Person"));
    expect(self).toContain("\x1b[7m"); // inverse video for me
    expect(other).not.toContain("\x1b[7m");
    expect(b!.lines.find((l) => l.style === "sender")!.mentioned).toBe(true);
  });

  it("renders links as OSC 8 hyperlinks when the terminal shows them, else as text (url)", () => {
    const store = eg.store();
    const m = eg.streamMessage({ content: "see [the docs](https://example.com/docs) now" });
    const [linked] = layoutAll(store, [m], opts({ color: true }), renderContext(store, true, "UTC", true));
    const body = linked!.lines.find((l) => l.style === "body")!.text;
    expect(body).toContain("\x1b]8;;https://example.com/docs\x07");
    expect(body).not.toContain("(https://");
    const [plain] = layoutAll(store, [m], opts({ color: true }), renderContext(store, true, "UTC", false));
    expect(plain!.lines.find((l) => l.style === "body")!.text).toContain("(");
    const [noColor] = layoutAll(store, [m], opts(), renderContext(store, false, "UTC", true));
    expect(noColor!.lines.find((l) => l.style === "body")!.text).toBe("see the docs (https://example.com/docs) now");
  });

  it("caches each message's lines per content version and width", () => {
    const store = eg.store();
    const ctx = renderContext(store, false, "UTC", false);
    const cache = new LayoutCache();
    const m = eg.streamMessage({ content: "cached **body**" });
    store.messages.put(m);
    const first = layoutMessage(store, m, undefined, opts({ cache }), ctx);
    expect(cache.bodyRenders).toBe(1);
    const again = layoutMessage(store, m, undefined, opts({ cache }), ctx);
    expect(cache.bodyRenders).toBe(1);
    expect(again.lines.at(-1)).toBe(first.lines.at(-1)); // the very same line objects
    eg.apply(store, eg.reactionEvent("add", m.id, { userId: 1 }));
    const reacted = layoutMessage(store, m, undefined, opts({ cache }), ctx);
    expect(cache.bodyRenders).toBe(2);
    expect(texts(reacted).at(-1)).toBe("[🎉 1]");
    layoutMessage(store, m, undefined, opts({ width: 30, cache }), ctx);
    expect(cache.bodyRenders).toBe(3);
    m.content = "edited body";
    m.last_edit_timestamp = T + 60;
    expect(texts(layoutMessage(store, m, undefined, opts({ width: 30, cache }), ctx))).toContain("edited body");
    expect(cache.bodyRenders).toBe(4);
  });

  it("two accounts whose messages share an id never show each other's layout, and keep their own entries", () => {
    const cache = new LayoutCache();
    const a = eg.store();
    const b = eg.store();
    const inA = eg.streamMessage({ id: 700, content: "said in the first organization" });
    const inB = { ...inA, content: "said in the second organization", sender_full_name: "Someone Else" };
    a.messages.put(inA);
    b.messages.put(inB);
    const ctxA = renderContext(a, false, "UTC", false, "first");
    const ctxB = renderContext(b, false, "UTC", false, "second");
    const shown = (store: typeof a, m: Message, ctx: typeof ctxA) => texts(layoutMessage(store, m, undefined, opts({ cache }), ctx)).join("\n");
    expect(shown(a, inA, ctxA)).toContain("said in the first organization");
    expect(shown(b, inB, ctxB)).toContain("said in the second organization");
    expect(shown(b, inB, ctxB)).toContain("Someone Else");
    // Each account's entry stays: going back and forth lays nothing out again.
    const renders = cache.bodyRenders;
    expect(shown(a, inA, ctxA)).not.toContain("second");
    expect(shown(b, inB, ctxB)).not.toContain("first");
    expect(cache.bodyRenders).toBe(renders);
  });

  it("a renamed person shows the new name at once in the messages mentioning them", () => {
    const cache = new LayoutCache();
    const ann = eg.user({ user_id: 41, full_name: "Ann Archer" });
    const store = eg.store({ realm_users: [eg.selfUser, eg.otherUser, ann] });
    const m = eg.streamMessage({ content: "ask @**Ann Archer|41** about it" });
    store.messages.put(m);
    // As the screen does: a render context per version of the names (see useMessageWindow).
    const ctxNow = () => renderContext(store, false, "UTC", false, "acct");
    const before = ctxNow();
    expect(texts(layoutMessage(store, m, undefined, opts({ cache }), before)).join("\n")).toContain("@Ann Archer");
    eg.apply(store, { type: "realm_user", op: "update", person: { user_id: 41, full_name: "Ann Brook" } });
    const after = ctxNow();
    expect(after.names).not.toBe(before.names);
    const body = texts(layoutMessage(store, m, undefined, opts({ cache }), after)).join("\n");
    expect(body).toContain("@Ann Brook");
    expect(body).not.toContain("Archer");
  });

  it("lays out only a window around the selection that fills the pane", () => {
    const store = eg.store();
    const msgs = Array.from({ length: 200 }, (_, i) => eg.streamMessage({ content: `message ${i}`, timestamp: T + i * 700 }));
    const ctx = renderContext(store, false, "UTC", false);
    const { blocks, firstIndex } = layoutWindow(store, msgs, 100, 20, opts(), ctx);
    expect(blocks.length).toBeLessThan(20);
    expect(blocks.map((b) => b.id)).toContain(msgs[100]!.id);
    expect(firstIndex).toBeGreaterThan(80);
    expect(blocks.reduce((n, b) => n + b.lines.length, 0)).toBeGreaterThanOrEqual(20);
  });
});

describe("message actions' helpers", () => {
  it("builds links to channel messages and DMs like the web app's", () => {
    const store = eg.store({ subscriptions: [eg.subscription({ stream_id: 10, name: "dev help" })] });
    const m = eg.streamMessage({ subject: "bug (v1.2) 100%", stream: eg.subscription({ stream_id: 10, name: "dev help" }) });
    expect(messageLink(store, m)).toBe(`https://chat.example.test/#narrow/channel/10-dev-help/topic/bug.20.28v1.2E2.29.20100.25/near/${m.id}`);
    const dm = eg.dmMessage();
    expect(messageLink(store, dm)).toBe(`https://chat.example.test/#narrow/dm/1,2-dm/near/${dm.id}`);
    const group = eg.dmMessage({ to: [eg.selfUser, eg.thirdUser] });
    expect(messageLink(store, group)).toMatch(/#narrow\/dm\/1,2,3-group\/near\/\d+$/);
    expect(encodeHashComponent("a.b")).toBe("a.2Eb");
  });

  it("finds emoji for the picker: custom emoji first, one cell per emoji", () => {
    const store = eg.store({ realm_emoji: { "9": eg.realmEmoji({ id: "9", name: "party_parrot" }) } });
    const found = emojiChoices(store, "par");
    expect(found[0]).toMatchObject({ label: ":party_parrot:", type: "realm_emoji", code: "9" });
    expect(found.some((c) => c.label === "🎉")).toBe(true);
    const thumbs = emojiChoices(store, "+1");
    expect(thumbs[0]).toMatchObject({ label: "👍", code: "1f44d" });
    expect(new Set(emojiChoices(store, "").map((c) => c.code)).size).toBe(emojiChoices(store, "").length);
    expect(emojiCode("❤️")).toBe("2764");
  });

  it("describes the edit history: the original, each edit as a word diff, each move from channel › topic to channel › topic", () => {
    const store = eg.store();
    const all = historyLines(
      store,
      [
        { timestamp: T, user_id: 2, content: "frist try at it", topic: "greetings" },
        { timestamp: T + 60, user_id: 2, content: "first try at it", prev_content: "frist try at it" },
        { timestamp: T + 120, user_id: 1, topic: "", prev_topic: "greetings", stream: 11, prev_stream: 10 },
      ],
      11,
      60,
    );
    const lines = all.map((l) => l.text);
    expect(lines[0]).toMatch(/Other Person · posted$/);
    expect(lines[1]).toBe("  frist try at it");
    expect(lines[2]).toMatch(/Other Person · edited the content$/);
    expect(lines[3]).toBe("  [-frist-]{+first+} try at it");
    // The pieces say which words went and which came, for the colours.
    expect(all[3]!.runs?.filter((r) => r.op !== "equal")).toEqual([
      { op: "delete", text: "[-frist-]" },
      { op: "insert", text: "{+first+}" },
    ]);
    expect(lines.at(-1)).toMatch(/Self User · moved from #general › greetings to #design › general chat$/);
  });

  it("wraps a long diff at word boundaries, keeping each word's part, and cleans control characters", () => {
    const store = eg.store();
    const before = "one two three four five six seven eight nine ten";
    const after = "one two 3 four five six seven eight nine ten \u001b]0;title\u0007";
    const lines = historyLines(
      store,
      [
        { timestamp: T, user_id: 2, content: before, topic: "t" },
        { timestamp: T + 60, user_id: 2, content: after, prev_content: before },
      ],
      10,
      24,
    ).filter((l) => l.kind === "diff");
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(displayWidth(l.text)).toBeLessThanOrEqual(24);
    expect(lines.map((l) => l.text).join(" ")).toMatch(/\[-three-\]\{\+3\+\}/);
    expect(lines.map((l) => l.text).join("")).not.toContain("\u001b");
  });

  it("shows a user's role, local time in their zone, status and presence", () => {
    const store = eg.store({ user_status: { "2": { status_text: "on a train", emoji_name: "train", emoji_code: "1f686", reaction_type: "unicode_emoji" } } });
    const u = eg.user({ user_id: 2, full_name: "Other Person", role: 300, timezone: "Asia/Tokyo" });
    const lines = cardLines(store, u, T * 1000);
    const get = (label: string) => lines.find((l) => l.label === label)?.value;
    expect(get("Role")).toBe("Moderator");
    expect(get("Local time")).toBe("Asia/Tokyo — Thu, Nov 20, 2025, 09:53 there");
    expect(get("Status")).toBe("🚆 on a train");
    expect(get("Presence")).toBe("○ offline");
    expect(localTimeText("Mars/Olympus", 0)).toBe("Mars/Olympus (unknown time zone)");
  });
});
