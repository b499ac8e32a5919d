import { describe, expect, it } from "vitest";
import { sanitize, sanitizeInline } from "../../src/render/sanitize.js";

// Nothing that a terminal could interpret may survive: ESC, any C0 (but \n when allowed), DEL, C1.
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/; // eslint-disable-line no-control-regex
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

function expectClean(out: string): void {
  expect(out).not.toMatch(CONTROL);
  expect(out).not.toMatch(BIDI);
}

describe("sanitize: hostile strings", () => {
  const cases: [string, string, string][] = [
    ["OSC 0 window title (BEL)", "a\x1b]0;pwned\x07b", "ab"],
    ["OSC 2 title (ST)", "a\x1b]2;pwned\x1b\\b", "ab"],
    ["OSC 52 clipboard write", "copy\x1b]52;c;ZXZpbA==\x07 me", "copy me"],
    ["OSC 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ here", "click here"],
    ["OSC 9 / 777 notifications", "\x1b]9;hi\x07\x1b]777;notify;a;b\x07x", "x"],
    ["CSI clear screen + home", "\x1b[2J\x1b[Hhello", "hello"],
    ["CSI cursor movement with private params", "a\x1b[?25lb\x1b[10;20Hc", "abc"],
    ["SGR colours", "\x1b[31mred\x1b[0m and \x1b[1;38;5;196mbold\x1b[m", "red and bold"],
    ["BEL", "ding\x07dong", "dingdong"],
    ["backspace overwrite", "safe\b\b\b\bEVIL", "safeEVIL"],
    ["8-bit CSI U+009B", "a\x9b2Jb", "ab"],
    ["8-bit OSC U+009D … U+009C", "a\x9d0;title\x9cb", "ab"],
    ["DCS string", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"],
    ["8-bit DCS U+0090", "a\x90payload\x9cb", "ab"],
    ["APC / PM / SOS", "a\x1b_apc\x1b\\b\x1b^pm\x1b\\c\x1bXsos\x1b\\d", "abcd"],
    ["two-byte ESC sequences (RIS, charset, DECSC)", "a\x1bcb\x1b(Bc\x1b7d", "abcd"],
    ["lone ESC at the end", "abc\x1b", "abc"],
    ["NUL, VT, FF, DEL", "a\x00b\x0bc\x0cd\x7fe", "abcde"],
    ["other C1 controls (NEL, RI, SPA, stray ST)", "a\x85b\x8dc\x96d\x9ce", "abcde"],
    ["bidi override", "user\u202Egnp.exe\u202C", "usergnp.exe"],
    ["bidi isolates", "a\u2066b\u2067c\u2068d\u2069e", "abcde"],
  ];
  for (const [what, input, visible] of cases) {
    it(`strips ${what}, keeps the text`, () => {
      const out = sanitize(input);
      expectClean(out);
      expect(out).toBe(visible);
    });
  }

  it("an unterminated OSC swallows the rest, as a terminal would, but nothing leaks", () => {
    const out = sanitize("ok\x1b]0;never ends");
    expectClean(out);
    expect(out).toBe("ok");
  });

  it("an ESC inside an OSC string ends it, and the following sequence is stripped too", () => {
    const out = sanitize("a\x1b]0;x\x1b[31mred");
    expectClean(out);
    expect(out).toBe("ared");
  });

  it("returns clean strings untouched (same string)", () => {
    const s = "Ünïcödé 日本語 🎉 plain";
    expect(sanitize(s)).toBe(s);
  });
});

describe("sanitize: line breaks and tabs", () => {
  it("single-line: line breaks become spaces", () => {
    expect(sanitize("a\nb\r\nc\rd")).toBe("a b c d");
  });

  it("multiline: keeps \\n, turns \\r\\n and lone \\r into \\n", () => {
    const out = sanitize("a\nb\r\nc\rd\u2028e", { multiline: true });
    expect(out).toBe("a\nb\nc\nd\ne");
    expectClean(out.replace(/\n/g, ""));
  });

  it("multiline: expands tabs to tab stops (default 4)", () => {
    expect(sanitize("a\tb\n\tc", { multiline: true })).toBe("a   b\n    c");
    expect(sanitize("ab\tc", { multiline: true, tabWidth: 8 })).toBe("ab      c");
  });

  it("single-line: a tab is one space", () => {
    expect(sanitize("a\tb")).toBe("a b");
  });

  it("stripped sequences do not count toward tab stops", () => {
    expect(sanitize("\x1b[31mab\x1b[0m\tc", { multiline: true })).toBe("ab  c");
  });
});

describe("sanitizeInline", () => {
  it("collapses whitespace runs and trims, for names and topics", () => {
    expect(sanitizeInline("  Alice \n\t  Smith\r\n")).toBe("Alice Smith");
  });

  it("strips escapes from a name", () => {
    const out = sanitizeInline("Mallory\x1b]0;owned\x07 \x1b[2J(admin)");
    expectClean(out);
    expect(out).toBe("Mallory (admin)");
  });
});

describe("sanitize: speed", () => {
  it("handles a long hostile string in linear time", () => {
    const evil = "\x9d".repeat(20_000) + "x" + "\x1b[".repeat(20_000);
    const t = performance.now();
    const out = sanitize(evil);
    expect(performance.now() - t).toBeLessThan(500);
    expectClean(out);
  });
});
