/**
 * Glyphs the terminal can show: under a locale that is not UTF-8 (or with "glyphs": "ascii")
 * every glyph termchat chooses is ASCII, and emoji are written as `:name:`; with "emoji":
 * "text" only the emoji change. Screens on a fake session (whose server text is ASCII but for
 * its emoji) may hold no byte ≥ 0x80 at all; the demo organization's screens in the real App
 * hold none of the client's Unicode glyphs and no emoji, only what its server text says.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Message, Reaction } from "../../src/api/schemas/common.js";
import { DEFAULT_SETTINGS } from "../../src/config/settings.js";
import { loadEmojiData } from "../../src/render/emoji.js";
import { emojiToText, GLYPH_SETS, t } from "../../src/render/glyphs.js";
import { loadMarkdown } from "../../src/render/markdown.js";
import { displayWidth } from "../../src/render/wrap.js";
import { markLegend } from "../../src/ui/components/RowMark.js";
import { Sidebar } from "../../src/ui/components/Sidebar.js";
import { applyPresentation, choosePresentation, localeIsUtf8 } from "../../src/ui/look.js";
import { layoutWindow, renderContext } from "../../src/ui/message-layout.js";
import { defaultKeymap } from "../../src/ui/hooks/use-ui-state.js";
import { HelpPopup, helpTitle, titledContexts } from "../../src/ui/popups/HelpPopup.js";
import { People } from "../../src/ui/popups/People.js";
import { WidgetPopup } from "../../src/ui/popups/WidgetPopup.js";
import { buildSidebarRows, sidebarRowKey } from "../../src/ui/sidebar-rows.js";
import { InboxView } from "../../src/ui/views/InboxView.js";
import { MessagesView } from "../../src/ui/views/MessagesView.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake } from "../fixtures/fake-session.js";
import { KEY, renderApp, type AppHarness } from "./render-app.js";

const UNICODE = { ascii: false, emojiText: false };

describe("choosing the glyphs", () => {
  it("reads the locale as POSIX does: LC_ALL, then LC_CTYPE, then LANG; C and POSIX and other charsets are not UTF-8", () => {
    expect(localeIsUtf8({ LANG: "en_US.UTF-8" })).toBe(true);
    expect(localeIsUtf8({ LANG: "C.utf8" })).toBe(true);
    expect(localeIsUtf8({ LANG: "C" })).toBe(false);
    expect(localeIsUtf8({ LANG: "POSIX" })).toBe(false);
    expect(localeIsUtf8({ LANG: "de_DE.ISO-8859-1" })).toBe(false);
    expect(localeIsUtf8({ LANG: "en_US" })).toBe(false); // no charset: the locale's legacy one
    expect(localeIsUtf8({ LC_ALL: "C", LANG: "en_US.UTF-8" })).toBe(false);
    expect(localeIsUtf8({ LC_CTYPE: "en_US.UTF-8", LANG: "C" })).toBe(true);
    expect(localeIsUtf8({ LC_ALL: "", LC_CTYPE: "C", LANG: "en_US.UTF-8" })).toBe(false); // empty is unset
    expect(localeIsUtf8({}, "linux")).toBe(false); // nothing set: the C locale
    expect(localeIsUtf8({}, "win32")).toBe(true);
  });

  it("lets the settings force a set; ASCII always writes emoji as text", () => {
    const unicodeTerminal = { unicode: true, emoji: true };
    const asciiTerminal = { unicode: false, emoji: true };
    expect(choosePresentation({ glyphs: "auto", emoji: "auto" }, unicodeTerminal)).toEqual({ ascii: false, emojiText: false });
    expect(choosePresentation({ glyphs: "auto", emoji: "auto" }, asciiTerminal)).toEqual({ ascii: true, emojiText: true });
    expect(choosePresentation({ glyphs: "unicode", emoji: "auto" }, asciiTerminal)).toEqual({ ascii: false, emojiText: false });
    expect(choosePresentation({ glyphs: "ascii", emoji: "emoji" }, unicodeTerminal)).toEqual({ ascii: true, emojiText: true });
    expect(choosePresentation({ glyphs: "auto", emoji: "text" }, unicodeTerminal)).toEqual({ ascii: false, emojiText: true });
    expect(choosePresentation({ glyphs: "auto", emoji: "auto" }, { unicode: true, emoji: false })).toEqual({ ascii: false, emojiText: true });
  });

  it("has an ASCII equivalent of every glyph, one cell wide where the Unicode one is, and a legend of the marks", () => {
    const { unicode, ascii } = GLYPH_SETS;
    for (const [key, value] of Object.entries(unicode)) {
      if (typeof value !== "string") continue;
      const other = ascii[key as keyof typeof ascii];
      expect(other, key).toMatch(/^[\x20-\x7e]+$/);
    }
    expect(Object.values(ascii.table ?? {}).join("")).toMatch(/^[\x20-\x7e]+$/);
    for (const key of ["selected", "open", "unread", "collapsed", "expanded"] as const) {
      expect(displayWidth(unicode[key]), key).toBe(1);
      expect(displayWidth(ascii[key]), key).toBe(1);
    }
    // One mark for each meaning: no two of the marks alike in either set.
    for (const set of [unicode, ascii]) expect(new Set([set.selected, set.open, set.unread]).size).toBe(3);
    applyPresentation({ ascii: true, emojiText: true });
    try {
      const legend = new Map(markLegend());
      expect(legend.get(">")).toMatch(/cursor/);
      expect(legend.get("=")).toMatch(/shown/);
      expect(legend.get("*")).toMatch(/unread/);
      expect(t`Enter open · ${"a · b"} — done…`).toBe("Enter open | a · b -- done..."); // the values are not the client's
    } finally {
      applyPresentation(UNICODE);
    }
    expect(t`Enter open · ${"x"}…`).toBe("Enter open · x…");
  });

  it("writes emoji as their names, the service's where it has one", async () => {
    await loadEmojiData();
    expect(emojiToText("Thanks 🙏 and 👍, ☕ or ✔️ 🧽")).toBe("Thanks :pray: and :+1:, :coffee: or :heavy_check_mark: :sponge:");
    expect(emojiToText("plain text, ✔ a resolved mark, “quotes”")).toBe("plain text, ✔ a resolved mark, “quotes”");
  });
});

describe("the help screen's sections", () => {
  it("has a title in words for every scope of the keymap (popup.widget is the poll and to-do popup)", () => {
    const contexts = new Set(defaultKeymap().keymap.helpRows().map((r) => r.context));
    expect(contexts.size).toBeGreaterThan(20);
    expect([...contexts].filter((c) => !titledContexts().includes(c))).toEqual([]);
    expect(helpTitle("popup.widget")).toBe("Poll and to-do popup");
    expect(helpTitle("popup.widget.add")).toMatch(/^Poll and to-do popup, adding/);
    expect(helpTitle("popup.some.new")).toBe("Some, new"); // a scope added later is still said in words
  });
});

// ---- the screens under the ASCII set, on a fake session ------------------------------------------

describe("the screens with ASCII glyphs, on a fake session", () => {
  beforeAll(async () => {
    await loadMarkdown();
    await loadEmojiData();
    applyPresentation({ ascii: true, emojiText: true });
  });
  afterAll(() => {
    applyPresentation(UNICODE);
  });
  let unmount: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await unmount?.();
    unmount = undefined;
  });

  const general = eg.subscription({ stream_id: 10, name: "general" });
  const secrets = eg.subscription({ stream_id: 12, name: "secrets", invite_only: true });
  const open = eg.subscription({ stream_id: 13, name: "open", is_web_public: true });
  const reaction = (name: string, code: string, user: number): Reaction => ({ emoji_name: name, emoji_code: code, reaction_type: "unicode_emoji", user_id: user });
  const SELF = eg.selfUser.user_id;
  const OTHER = eg.otherUser.user_id;

  function messages(): Message[] {
    const body = [
      "Shipped it 🚀 thanks @**Self User**!",
      "",
      "> quoted :tada: text",
      "",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
      "",
      "---",
      "",
      "- one",
      "- [two](https://example.test/two)",
      "",
      "```spoiler Who did it",
      "the butler",
      "```",
      "",
      "`code` and $$x^2$$",
    ].join("\n");
    const first = eg.streamMessage({ stream: general, subject: "launch", content: body, sender_id: OTHER, reactions: [reaction("tada", "1f389", SELF), reaction("+1", "1f44d", SELF), reaction("heart", "2764", OTHER)] });
    const resolved = eg.streamMessage({ stream: secrets, subject: "✔ done", content: "All set ☕", sender_id: SELF, flags: ["read", "starred"] });
    const poll = eg.streamMessage({ stream: open, subject: "lunch", content: "/poll Lunch?\nPizza\nTacos", sender_id: OTHER });
    poll.submessages = [
      { id: 1, message_id: poll.id, sender_id: OTHER, msg_type: "widget", content: JSON.stringify({ widget_type: "poll", extra_data: { question: "Lunch? 🍕", options: ["Pizza", "Tacos"] } }) },
      { id: 2, message_id: poll.id, sender_id: SELF, msg_type: "widget", content: JSON.stringify({ type: "vote", key: "canned,0", vote: 1 }) },
    ];
    return [first, resolved, poll];
  }

  function setup() {
    const all = messages();
    const unread = all.filter((m) => !m.flags.includes("read"));
    return fakeSession({
      register: {
        subscriptions: [general, secrets, open],
        unread_msgs: eg.unreadMessages(unread),
        user_status: { [OTHER]: { status_text: "on holiday 🌴", emoji_name: "palm_tree", emoji_code: "1f334", reaction_type: "unicode_emoji" } },
      },
      loaded: { narrow: { kind: "feed" }, messages: all },
      narrow: { kind: "feed" },
    });
  }

  function expectAscii(frame: string, what: string) {
    const odd = [...frame].filter((c) => c.codePointAt(0)! >= 0x80);
    expect(odd, `${what}:\n${frame}`).toEqual([]);
    expect(Buffer.from(frame).every((b) => b < 0x80), what).toBe(true);
  }

  it("the sidebar, the combined feed and the inbox", async () => {
    const fake = setup();
    const rows = buildSidebarRows(fake.store, { expanded: 12 });
    const ctxRender = renderContext(fake.store, false, "UTC", false);
    const { blocks } = layoutWindow(fake.store, fake.ctx.messages, 0, 30, { width: 60, showRecipients: true, color: false }, ctxRender);
    const unread = new Set(fake.ctx.messages.filter((m) => !m.flags.includes("read")).map((m) => m.id));
    const screen = await renderOnFake(
      fake,
      <>
        <Sidebar rows={rows} cursor={3} width={24} height={rows.length} focused openKey={sidebarRowKey(rows[1]!)} rowKey={sidebarRowKey} filter="se" />
        <MessagesView
          narrow={{ kind: "feed" }}
          blocks={blocks}
          selectedId={fake.ctx.messages[0]!.id}
          unread={unread}
          pending={[]}
          width={60}
          paneHeight={40}
          focused
          editor={{ text: "", cursor: 0 }}
          sending={false}
          placeholder="No messages here yet."
          loadingMore
          typing="Other Person is typing..."
        />
        <InboxView width={60} height={12} focused />
      </>,
    );
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("Inbox") && screen.frame().includes("Lunch?"), "the screens");
    const f = screen.frame();
    expectAscii(f, "sidebar, feed and inbox");
    // What the ASCII glyphs and emoji as text look like there.
    expect(f).toContain(":lock:secrets"); // the private channel's marker
    expect(f).toContain("v done"); // the resolved topic
    expect(f).toMatch(/\[:tada: 1\] {2}\[:\+1: 1\] {2}:heart: 1$/m); // own chips in brackets, two spaces between any two chips
    expect(f).toContain(":rocket:");
    expect(f).toContain("> quoted :tada: text");
    expect(f).toContain("+---+---+");
    expect(f).toContain("Poll: Lunch? :pizza:  (1 voter)");
    expect(f).toMatch(/^> *Other Person/m); // the selected message's mark
    expect(f).toMatch(/^\*Self User|^\*Other Person/m); // an unread message's mark
  });

  it("the help screen, the people list and the poll popup", async () => {
    const fake = setup();
    const screens = [
      <HelpPopup keymap={fake.ctx.keymap} close={() => {}} />,
      <People close={() => {}} onOpen={() => {}} onCard={() => {}} />,
      <WidgetPopup messageId={fake.ctx.messages[2]!.id} close={() => {}} />,
    ];
    const expected = ["Marks on screen", "Other Person", "Pizza"];
    for (const [i, node] of screens.entries()) {
      await unmount?.();
      const screen = await renderOnFake(fake, node);
      unmount = screen.unmount;
      await screen.until(() => screen.frame().includes(expected[i]!), expected[i]!);
      expectAscii(screen.frame(), expected[i]!);
      expect(screen.frame()).toMatch(/^\+-+\+$/m); // the classic ASCII border
    }
  });
});

// ---- the demo's screens in the real App --------------------------------------------------------

describe("the demo organization's screens in the App", () => {
  let app: AppHarness | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    applyPresentation(UNICODE);
  });

  /** Every character ≥ U+0080 the client itself could write in the Unicode set, emoji included. */
  function clientGlyphs(): Set<string> {
    const out = new Set<string>();
    for (const v of Object.values(GLYPH_SETS.unicode)) if (typeof v === "string") for (const c of v) if (c.codePointAt(0)! >= 0x80) out.add(c);
    for (const c of "·…—–→←↑↓“”‘’‹›×★✔✓✖●▀") out.add(c);
    for (let cp = 0x2500; cp <= 0x259f; cp++) out.add(String.fromCodePoint(cp)); // box drawing and blocks
    return out;
  }

  /** The characters ≥ U+0080 the demo's own text has once its emoji are names (names, topics, messages). */
  function serverText(a: AppHarness): Set<string> {
    const store = a.machine.store!;
    const texts = [
      ...[...store.users.values()].map((u) => u.full_name),
      ...[...store.channels.values()].map((c) => c.name),
      ...[...store.messages.byId.values()].flatMap((m) => [m.content, m.subject]),
    ];
    return new Set([...emojiToText(texts.join("\n"))].filter((c) => c.codePointAt(0)! >= 0x80));
  }

  it("under ASCII glyphs: no glyph of the client's own and no emoji on the feed, sidebar, inbox, help and people screens", async () => {
    await loadEmojiData();
    app = await renderApp({ settings: { ...DEFAULT_SETTINGS, startView: "feed", glyphs: "ascii" } });
    await app.waitFor("* connected");
    await app.waitFor(/#\S+ > /); // the feed's messages, with their headers in ASCII
    const own = clientGlyphs();
    const check = (what: string) => {
      const allowed = serverText(app!);
      const frame = app!.frame();
      const odd = [...frame].filter((c) => c.codePointAt(0)! >= 0x80);
      const ours = odd.filter((c) => own.has(c) && !allowed.has(c));
      expect(ours, `${what}: the client's own glyphs\n${frame}`).toEqual([]);
      expect(odd.filter((c) => !allowed.has(c)), `${what}: not from the server's text\n${frame}`).toEqual([]);
      expect(/\p{Extended_Pictographic}/u.test(frame.replace(/[—–→]/g, "")), `${what}: an emoji\n${frame}`).toBe(false);
    };
    check("the combined feed and the sidebar");
    await app.press("I");
    await app.waitFor(/Inbox {2}\d+ unread \| Enter open/);
    check("the Inbox");
    await app.press("?");
    await app.waitFor("Marks on screen");
    check("the help");
    expect(app.frame()).toMatch(/\| +> +the row or message under the cursor/); // the legend, in the glyphs in use
    await app.press(KEY.escape, "w");
    await app.waitFor("people |");
    check("the people list");
  });

  it("with emoji as text: reactions, bodies and markers say the emoji's name", async () => {
    await loadEmojiData();
    app = await renderApp({ settings: { ...DEFAULT_SETTINGS, startView: "feed", emoji: "text" } });
    await app.waitFor("● connected"); // Unicode glyphs all the same
    await app.sidebarTo("general");
    await app.press(KEY.enter, "j", "j", KEY.enter); // #general > lunch on friday
    await app.waitFor(/:tada: \d+/); // a reaction chip
    const f = await app.waitFor(":lock:leadership"); // the private channel's marker
    expect(/\p{Extended_Pictographic}/u.test(f.replace(/[✔★●◐○]/g, "")), f).toBe(false);
  });
});
