import { describe, expect, it } from "vitest";
import { EMPTY_EDITOR, editActionForKey, editorReducer, type EditorAction } from "../../src/ui/compose-editor.js";

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
});
