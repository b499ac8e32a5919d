import { describe, expect, it } from "vitest";
import { condense, CONDENSE_ABOVE, CONDENSED_LENGTH } from "../../src/render/condense.js";

describe("condensing a long message", () => {
  it("leaves a message of up to the limit whole", () => {
    expect(condense("a".repeat(CONDENSE_ABOVE))).toBeUndefined();
    expect(condense("short")).toBeUndefined();
  });

  it("cuts at the last line break before its length, and counts what it leaves out", () => {
    const content = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    const c = condense(content)!;
    expect(c.text.length).toBeLessThanOrEqual(CONDENSED_LENGTH);
    expect(content.startsWith(c.text)).toBe(true);
    expect(content[c.text.length]).toBe("\n");
    expect(c.hidden).toBe(content.length - c.text.length);
  });

  it("cuts one long line at the length, never inside a character of two halves", () => {
    const content = "😀".repeat(3000);
    const c = condense(content)!;
    expect(c.text.length).toBeLessThanOrEqual(CONDENSED_LENGTH);
    expect([...c.text].every((ch) => ch === "😀")).toBe(true);
    expect(c.hidden).toBe(3000 - [...c.text].length);
  });

  it("closes a code fence the beginning opens, with the same fence", () => {
    const content = `intro\n~~~~ python\n${"x = 1\n".repeat(1000)}~~~~\nafter`;
    const c = condense(content)!;
    expect(c.text.startsWith("intro\n~~~~ python\n")).toBe(true);
    expect(c.text.endsWith("\n~~~~")).toBe(true);
    const closed = condense(`\`\`\`\ncode\n\`\`\`\n${"words and more words\n".repeat(400)}`)!;
    expect(closed.text.endsWith("```")).toBe(false);
  });
});
