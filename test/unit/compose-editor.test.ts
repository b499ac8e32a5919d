import { describe, expect, it } from "vitest";
import { EMPTY_EDITOR, editActionForKey, editorReducer, lineCount, type EditorAction } from "../../src/ui/compose-editor.js";

function run(actions: EditorAction[], start = EMPTY_EDITOR) {
  return actions.reduce(editorReducer, start);
}

function typeKeys(text: string) {
  return run([...text].map((ch) => editActionForKey(ch, ch)!));
}

describe("compose editor", () => {
  it("keeps every key of fast typing, in order", () => {
    expect(typeKeys("abcdefghijklmnop").text).toBe("abcdefghijklmnop");
  });

  it("edits in the middle of the text", () => {
    const s = run([{ type: "insert", text: "helo" }, { type: "left" }, { type: "insert", text: "l" }]);
    expect(s).toEqual({ text: "hello", cursor: 4 });
  });

  it("erases whole emoji, not half of a surrogate pair", () => {
    const s = run([{ type: "insert", text: "ok 👍" }, { type: "backspace" }]);
    expect(s.text).toBe("ok ");
  });

  it("moves over and erases an emoji made of several code points in one step", () => {
    const family = "👨‍👩‍👧";
    const s = run([{ type: "insert", text: `a${family}b` }, { type: "left" }, { type: "left" }]);
    expect(s.cursor).toBe(1);
    expect(run([{ type: "right" }], s).cursor).toBe(1 + family.length);
    expect(run([{ type: "delete" }], s).text).toBe("ab");
    expect(run([{ type: "right" }, { type: "backspace" }], s).text).toBe("ab");
  });

  it("moves home/end within the current line of a multi-line text", () => {
    const s = run([{ type: "insert", text: "first\nsecond" }, { type: "home" }]);
    expect(s.cursor).toBe(6);
    expect(run([{ type: "end" }], { ...s, cursor: 2 }).cursor).toBe(5);
  });

  it("deletes the previous word and the rest of the line", () => {
    expect(run([{ type: "insert", text: "one two three" }, { type: "deleteWordBack" }]).text).toBe("one two");
    expect(run([{ type: "killLine" }], { text: "keep cut", cursor: 4 }).text).toBe("keep");
  });

  it("drops terminal control characters from pasted text, keeping newlines", () => {
    const s = run([{ type: "insert", text: "a\x1b[31mb\x07c\r\nd\te" }]);
    expect(s.text).toBe("a[31mbc\nd    e");
  });

  it("maps editing keys and ignores other control keys", () => {
    expect(editActionForKey("backspace", "")).toEqual({ type: "backspace" });
    expect(editActionForKey("C-a", "a")).toEqual({ type: "home" });
    expect(editActionForKey("C-x", "x")).toBeUndefined();
    expect(editActionForKey("up", "")).toBeUndefined();
    expect(editActionForKey("é", "é")).toEqual({ type: "insert", text: "é" });
  });

  it("moves up and down between lines, keeping the column it started from as editors do", () => {
    const start = { text: "first line\nab\nthird line", cursor: 8 };
    const down = run([{ type: "down" }], start);
    expect(down.cursor).toBe(13); // end of "ab"
    expect(run([{ type: "down" }, { type: "down" }], start).cursor).toBe(22); // "third li|ne": back to the column it started from
    expect(run([{ type: "up" }], start)).toEqual(start); // first line: stays
    expect(run([{ type: "down" }, { type: "up" }], start).cursor).toBe(8);
    // Any other key forgets the column: from "ab|", left then down goes to the column of "a|".
    expect(run([{ type: "down" }, { type: "left" }, { type: "down" }], start).cursor).toBe(15);
    expect(lineCount(start)).toBe(3);
  });

  it("never puts the cursor inside an emoji when moving between lines", () => {
    const s = run([{ type: "up" }], { text: "👍👍\nabc", cursor: 8 });
    expect(s.cursor).toBe(2);
    const t = run([{ type: "up" }], { text: "👍👍\na", cursor: 6 });
    expect(t.cursor).toBe(0);
  });

  it("cleans text that comes from elsewhere (drafts, messages, $EDITOR) of escape sequences", () => {
    const s = run([{ type: "replace", text: "a\x1b]0;title\x07b\nc\x1b[31md", cursor: 999 }]);
    expect(s.text).toBe("ab\ncd");
    expect(s.cursor).toBe(s.text.length);
    expect(run([{ type: "set", text: "x\u202ey" }]).text).toBe("xy");
  });

  it("Ctrl-U erases from the start of the line to the cursor, on that line only", () => {
    const s = editorReducer(EMPTY_EDITOR, { type: "set", text: "first line\nsecond line" });
    const at = { ...s, cursor: s.text.indexOf("line", 11) };
    const e = editActionForKey("C-u", "u");
    expect(e).toEqual({ type: "killToStart" });
    expect(editorReducer(at, e!)).toEqual({ text: "first line\nline", cursor: 11 });
  });
});
