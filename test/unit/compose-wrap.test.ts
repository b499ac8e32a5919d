import { describe, expect, it } from "vitest";
import { EMPTY_EDITOR, editorReducer, type EditorAction, type EditorState } from "../../src/ui/compose-editor.js";
import { cursorRow, layoutText, moveVisual, type VisualLine } from "../../src/ui/compose-wrap.js";
import stringWidth from "../../src/render/string-width.js";
import { prng, randomText } from "../fixtures/prng.js";

/** The visual lines as strings. */
function shown(text: string, width: number): string[] {
  return layoutText(text, width).map((l) => text.slice(l.start, l.end));
}

function run(actions: EditorAction[], start: EditorState = EMPTY_EDITOR): EditorState {
  return actions.reduce(editorReducer, start);
}

describe("compose soft wrap", () => {
  it("breaks between words, the spaces staying at the end of the upper line", () => {
    expect(shown("the quick brown fox jumps", 10)).toEqual(["the quick ", "brown fox ", "jumps"]);
    expect(shown("short", 10)).toEqual(["short"]);
    expect(shown("", 10)).toEqual([""]);
  });

  it("lets one space hang in the kept column, and breaks a word longer than the line", () => {
    expect(shown("abcdefgh ij", 8)).toEqual(["abcdefgh ", "ij"]);
    expect(shown("abcdefghijk", 4)).toEqual(["abcd", "efgh", "ijk"]);
    expect(shown("ab cdefghij", 4)).toEqual(["ab ", "cdef", "ghij"]);
  });

  it("keeps hard line breaks, empty lines included, and wraps each line on its own", () => {
    expect(shown("one two\n\nthree four five", 6)).toEqual(["one ", "two", "", "three ", "four ", "five"]);
    expect(layoutText("a\nb", 5).map((l) => l.hard)).toEqual([true, true]);
    expect(layoutText("aaa bbb", 4).map((l) => l.hard)).toEqual([false, true]);
  });

  it("measures wide characters and emoji by the cells they take, never splitting a cluster", () => {
    expect(shown("日本語のテキスト", 6)).toEqual(["日本語", "のテキ", "スト"]);
    const family = "👨‍👩‍👧";
    expect(shown(`${family}${family}${family}`, 4)).toEqual([family + family, family]);
    expect(shown("ok 👍👍 yes", 6)).toEqual(["ok ", "👍👍 ", "yes"]);
  });

  it("never loses or adds a character, and no line is wider than the width and one hanging space (random text)", () => {
    const random = prng(27);
    const pieces = ["a", "bb", "word", " ", " ", "  ", "\n", "日本", "👍", "👨‍👩‍👧", "é", "e\u0301", "\u0301", "👍🏽", "longwordlongword"];
    const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    for (let round = 0; round < 300; round++) {
      const text = randomText(random, pieces, 30);
      const width = 2 + Math.floor(random() * 20);
      const lines = layoutText(text, width);
      // Lines begin and end between grapheme clusters of the whole text.
      const boundaries = new Set([...segmenter.segment(text)].map((g) => g.index));
      boundaries.add(text.length);
      for (const l of lines) expect(boundaries.has(l.start) && boundaries.has(l.end)).toBe(true);
      // The lines cover the text: each starts where the previous ended (after a line break if it was hard).
      let at = 0;
      for (const l of lines) {
        expect(l.start).toBe(at);
        at = l.end + (l.hard ? 1 : 0);
        const piece = text.slice(l.start, l.end);
        expect(piece).not.toContain("\n");
        const w = stringWidth(piece);
        // Wider than the width only by one hanging space, or a single cluster wider than the line.
        if (w > width) expect(piece.endsWith(" ") ? w - 1 <= width : [...piece].length <= 8).toBe(true);
      }
      expect(at).toBe(text.length + 1);
    }
  });

  it("puts the cursor at the end of a soft-wrapped line at the start of the next", () => {
    const text = "the quick brown";
    const lines = layoutText(text, 10);
    expect(cursorRow(lines, 9)).toBe(0); // "the quick| "
    expect(cursorRow(lines, 10)).toBe(1); // "|brown"
    expect(cursorRow(lines, text.length)).toBe(1);
  });
});

describe("↑/↓ by visual lines", () => {
  const text = "the quick brown fox jumps over the lazy dog";
  // width 10: "the quick " / "brown fox " / "jumps over " / "the lazy " / "dog"
  it("moves within one paragraph, by the lines the box shows", () => {
    const lines = layoutText(text, 10);
    expect(lines.length).toBe(5);
    const at = text.indexOf("quick") + 2; // "the qu|ick"
    const down = run([{ type: "down", width: 10 }], { text, cursor: at });
    expect(text.slice(0, down.cursor).endsWith("brown ")).toBe(true); // column 6: "brown |fox"
    const up = run([{ type: "up", width: 10 }], down);
    expect(up.cursor).toBe(at);
  });

  it("keeps the column through a shorter line and back", () => {
    const t = "a long first line\nab\nanother long line";
    const start = { text: t, cursor: 10 };
    const s = run([{ type: "down", width: 40 }, { type: "down", width: 40 }], start);
    expect(s.cursor).toBe(t.indexOf("another") + 10);
    expect(run([{ type: "down", width: 40 }], start).cursor).toBe(t.indexOf("ab") + 2);
  });

  it("never leaves the cursor past the end of a soft-wrapped line (that place is the next line's start)", () => {
    // From "jumps over| " (column 10) up to "brown fox ": the last place on that line is before its space.
    const at = text.indexOf("over") + 4;
    const up = moveVisual(text, at, 10, -1);
    expect(up?.cursor).toBe(text.indexOf("fox") + 3);
    expect(moveVisual(text, 0, 10, -1)).toBeUndefined();
    expect(moveVisual(text, text.length, 10, 1)).toBeUndefined();
  });

  it("lands on a cluster boundary next to wide characters", () => {
    const t = "abcd\n日本語";
    const s = run([{ type: "down", width: 20 }], { text: t, cursor: 3 }); // column 3: inside 本 (cells 2-3)
    expect(s.cursor).toBe(6); // before 本
    const lines: VisualLine[] = layoutText(t, 20);
    expect(cursorRow(lines, s.cursor)).toBe(1);
  });
});
