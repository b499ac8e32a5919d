import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isMeMessage, loadMarkdown, meMessageText, renderMarkdown, type RenderContext } from "../../src/render/markdown.js";
import { displayWidth } from "../../src/render/wrap.js";

const users = new Map<number, string>([
  [1, "Iago Self"],
  [2, "Bob Other"],
  [3, "Carol Renamed"],
]);

const ctx: RenderContext = {
  selfUserId: 1,
  userName: (id) => users.get(id),
  isSelfName: (name) => users.get(1) === name,
  channelName: () => undefined,
  emptyTopicName: "general chat",
  timeZone: "Europe/Berlin",
  twentyFourHour: true,
  color: false,
};

const plain = (src: string, width = 80): string => renderMarkdown(src, ctx, width);
const colored = (src: string, width = 80): string => renderMarkdown(src, { ...ctx, color: true }, width);

beforeAll(async () => {
  await loadMarkdown();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("safety", () => {
  it("no escape from the message survives, with or without colour", () => {
    const src = "a\x1b]0;pwned\x07b \x1b]52;c;ZXZpbA==\x07c \x1b[2Jd \x9b31me \x1b]8;;http://x\x1b\\f\x1b]8;;\x1b\\ g\u202Eh";
    for (const out of [plain(src), colored(src)]) {
      expect(out).not.toMatch(/\x1b\]|\x07|\x9b|\x9d|\u202e|\x1b\[2J/); // eslint-disable-line no-control-regex
      expect(out).toContain("ab c d e f gh");
    }
  });

  it("with color: false there is no ESC at all, even for code, tables and mentions", () => {
    const src = "@**Iago Self** **b** `c`\n\n```js\nconst x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---";
    expect(plain(src)).not.toContain("\x1b");
  });

  it("has no trailing newline", () => {
    expect(plain("hello\n\n")).toBe("hello");
    expect(plain("- a\n- b\n")).not.toMatch(/\n$/);
  });
});

describe("mentions", () => {
  it("user mentions show @Name", () => {
    expect(plain("hi @**Bob Other**!")).toBe("hi @Bob Other!");
  });

  it("a mention with an id shows the current name for that id", () => {
    expect(plain("@**Carol Old|3** look")).toBe("@Carol Renamed look");
    expect(plain("@**Ghost|99**")).toBe("@Ghost"); // unknown id: the written name
  });

  it("silent mentions, wildcards and groups", () => {
    expect(plain("@_**Bob Other** @**all** @**everyone** @**channel** @**topic** @*backend* @_*ops*")).toBe(
      "@Bob Other @all @everyone @channel @topic @backend @ops",
    );
  });

  it("a mention of me is styled differently (stronger) from a mention of someone else", () => {
    const me = colored("@**Iago Self**");
    const other = colored("@**Bob Other**");
    expect(me).toContain("\x1b[");
    expect(other).toContain("\x1b[");
    const codes = (s: string): string => (s.match(/\x1b\[[0-9;]*m/g) ?? []).join(""); // eslint-disable-line no-control-regex
    expect(codes(me)).not.toBe(codes(other));
    expect(me).toContain("\x1b[7m"); // inverse
    expect(colored("@**Iago Self|1**")).toBe(me); // by id too
    expect(colored("@_**Iago Self**")).not.toContain("\x1b[7m"); // silent: no alert
  });

  it("does not touch mention syntax inside code", () => {
    expect(plain("`@**Bob Other**`")).toBe("@**Bob Other**");
  });
});

describe("channel links", () => {
  it("#**channel** and #**channel>topic**", () => {
    expect(plain("see #**design** and #**design>ideas & plans**")).toBe("see #design and #design > ideas & plans");
  });

  it("the empty topic shows its display name; a message link suffix is dropped", () => {
    expect(plain("#**design>**")).toBe("#design > general chat");
    expect(plain("#**design>ideas@123**")).toBe("#design > ideas");
  });
});

describe("emoji", () => {
  it(":name: becomes the emoji when known, stays as written otherwise", () => {
    expect(plain(":tada: :+1: :thumbs_up: :heart: :no_such_emoji_here:")).toBe("🎉 👍 👍 ❤️ :no_such_emoji_here:");
  });

  it("names from the full table work once loaded", () => {
    expect(plain(":pizza:")).toBe("🍕");
  });

  it("the organization's custom emoji are drawn as their name in colour, before a Unicode one of the same name", () => {
    const names = new Set(["lighthouse", "tada"]);
    const custom = { has: (n: string) => names.has(n), generation: 1 };
    const out = renderMarkdown(":lighthouse: :tada: :nope:", { ...ctx, color: true, customEmoji: custom }, 80);
    expect(out).toBe("\x1b[35m:lighthouse:\x1b[39m \x1b[35m:tada:\x1b[39m :nope:");
    // A new set of emoji (a later generation) is not answered from the cache.
    expect(renderMarkdown(":tada:", { ...ctx, color: true, customEmoji: custom }, 80)).toBe("\x1b[35m:tada:\x1b[39m");
    names.delete("tada");
    expect(renderMarkdown(":tada:", { ...ctx, color: true, customEmoji: { ...custom, generation: 2 } }, 80)).toBe("🎉");
  });

  it("times and URLs with colons are left alone", () => {
    expect(plain("at 10:30:45")).toBe("at 10:30:45");
  });
});

describe("fences and quotes", () => {
  it("a spoiler is shown collapsed with its header", () => {
    const out = plain("```spoiler Plot *twist*\nThe butler did it.\n```");
    expect(out).toBe("▶ Plot twist (spoiler)");
    expect(out).not.toContain("butler");
    expect(plain("```spoiler\nhidden\n```")).toBe("▶ Spoiler (spoiler)");
  });

  it("quote fences and > quotes get a bar, with their Markdown rendered", () => {
    expect(plain("```quote\nquoted **text**\n```")).toBe("▎ quoted text");
    expect(plain("> one\n> two")).toBe("▎ one\n▎ two");
  });

  it("a quote fence may contain a code fence", () => {
    const out = plain("````quote\n```python\nprint(1)\n```\nafter\n````\nbelow");
    expect(out).toContain("print(1)");
    expect(out).toMatch(/▎ after\n\nbelow$/);
  });

  it("math is shown as source", () => {
    expect(plain("```math\n\\frac{a}{b}\n```")).toContain("\\frac{a}{b}");
    expect(plain("so $$x^2_i + y_j$$ holds")).toBe("so $$x^2_i + y_j$$ holds");
  });
});

describe("code blocks", () => {
  it("keep their content, highlighted when coloured", () => {
    expect(plain("```js\nconst x = 1;\n```")).toBe("  const x = 1;");
    const out = colored("```js\nconst x = 1;\n```");
    expect(out).toContain("\x1b[");
    expect(out.replace(/\x1b\[[0-9;]*m/g, "")).toBe("  const x = 1;"); // eslint-disable-line no-control-regex
  });

  it("an unknown fence language writes nothing to the console or stdout", () => {
    const spies = [
      vi.spyOn(console, "log"),
      vi.spyOn(console, "warn"),
      vi.spyOn(console, "error"),
      vi.spyOn(process.stdout, "write"),
      vi.spyOn(process.stderr, "write"),
    ];
    const out = colored("```nosuchlanguage\nlet x = 1;\n```\n\n```python3 extra words\nprint(1)\n```");
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    expect(out).toContain("let x = 1;");
  });
});

describe("lists, tables, links", () => {
  it("list items render inline formatting, not raw **", () => {
    const out = plain("- item **bold** and _em_ :tada:\n- two");
    expect(out).toBe("  * item bold and em 🎉\n  * two");
    const c = colored("- item **bold**");
    expect(c).toContain("\x1b[1mbold\x1b[22m");
    expect(c).not.toContain("**");
  });

  it("ordered and task lists", () => {
    expect(plain("1. one\n2. two")).toBe("  1. one\n  2. two");
    expect(plain("- [ ] todo\n- [x] done")).toBe("  * [ ] todo\n  * [x] done");
  });

  it("tables are drawn with their cells", () => {
    const out = plain("| a | b |\n|---|---|\n| **1** | 2 |");
    expect(out.split("\n")).toEqual(["┌───┬───┐", "│ a │ b │", "├───┼───┤", "│ 1 │ 2 │", "└───┴───┘"]);
  });

  it("links show text and URL, without OSC 8", () => {
    expect(plain("[docs](https://example.com/docs) https://example.com")).toBe(
      "docs (https://example.com/docs) https://example.com",
    );
    expect(colored("[docs](https://example.com)")).not.toContain("\x1b]");
  });

  it("an image is a link to it, labelled as an image, inline with the text around it", () => {
    expect(plain("see ![diagram](https://images.example.com/arch.png) above")).toBe("see image: diagram (https://images.example.com/arch.png) above");
    expect(plain("![](https://images.example.com/arch.png)")).toBe("image: arch.png (https://images.example.com/arch.png)");
    const linked = renderMarkdown("![diagram](https://images.example.com/arch.png)", { ...ctx, color: true, hyperlinks: true }, 80);
    expect(linked).toContain("\x1b]8;;https://images.example.com/arch.png\x07");
    expect(linked.replace(/\x1b\][^\x07]*\x07|\x1b\[[0-9;]*m/g, "")).toBe("image: diagram"); // eslint-disable-line no-control-regex
  });
});

describe("time", () => {
  it("<time:…> is shown in the context's time zone", () => {
    expect(plain("meet <time:2026-11-20T10:00:00Z>")).toBe("meet Fri, Nov 20, 2026, 11:00");
    expect(renderMarkdown("<time:2026-11-20T10:00:00Z>", { ...ctx, timeZone: "America/New_York", twentyFourHour: false }, 80)).toBe(
      "Fri, Nov 20, 2026, 5:00 AM",
    );
  });

  it("an invalid time stays as written", () => {
    expect(plain("<time:not a date>")).toBe("<time:not a date>");
  });
});

describe("wrapping", () => {
  it("no line is wider than the width, CJK and emoji included", () => {
    const src =
      "Lorem ipsum dolor sit amet, **consectetur** adipiscing elit 日本語のテキストです 🎉🎉🎉 and a verylongwordthatcannotfitonasinglelineatall\n\n- a list item that is long enough to wrap around\n\n> a quote that is long enough to wrap around too";
    for (const width of [20, 33, 50]) {
      for (const out of [plain(src, width), colored(src, width)]) {
        for (const line of out.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      }
    }
  });

  it("continuation lines keep list indentation and quote bars", () => {
    expect(plain("- one two three four five six", 16)).toBe("  * one two\n    three four\n    five six");
    expect(plain("> one two three four five six", 14)).toBe("▎ one two\n▎ three four\n▎ five six");
  });

  it("caches per width", () => {
    const src = "alpha beta gamma delta";
    expect(plain(src, 80)).toBe("alpha beta gamma delta");
    expect(plain(src, 11)).toBe("alpha beta\ngamma delta");
    expect(plain(src, 80)).toBe("alpha beta gamma delta");
  });
});

describe("/me", () => {
  it("isMeMessage and meMessageText", () => {
    expect(isMeMessage("/me waves")).toBe(true);
    expect(meMessageText("/me waves hello")).toBe("waves hello");
    expect(isMeMessage("/me")).toBe(false);
    expect(isMeMessage("/meow")).toBe(false);
    expect(isMeMessage("/me waves\nsecond line")).toBe(false);
    expect(meMessageText("hello")).toBeUndefined();
  });
});
