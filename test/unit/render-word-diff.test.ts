import { describe, expect, it } from "vitest";
import { wordDiff, wordTokens, type DiffRun } from "../../src/render/word-diff.js";

/** Runs as a compact string: [-removed-] {+added+}, unchanged text as it is. */
function show(runs: DiffRun[]): string {
  return runs.map((r) => (r.op === "equal" ? r.text : r.op === "delete" ? `[-${r.text}-]` : `{+${r.text}+}`)).join("");
}

/** Applying the runs gives back both texts. */
function sides(runs: DiffRun[]): [string, string] {
  return [runs.filter((r) => r.op !== "insert").map((r) => r.text).join(""), runs.filter((r) => r.op !== "delete").map((r) => r.text).join("")];
}

describe("word diff of an edit", () => {
  it("marks the words added and removed, keeping the rest", () => {
    const d = wordDiff("Lunch at noon on Friday", "Lunch at one on Friday, bring snacks");
    expect(show(d.runs)).toBe("Lunch at [-noon-]{+one+} on Friday{+, bring snacks+}");
    expect(d.granularity).toBe("word");
  });

  it("cuts code and punctuation finely", () => {
    expect(wordTokens("foo(bar, 2)!")).toEqual(["foo", "(", "bar", ",", " ", "2", ")", "!"]);
    expect(show(wordDiff("call foo(bar)", "call foo(baz)").runs)).toBe("call foo([-bar-]{+baz+})");
    expect(show(wordDiff("x = a+b;", "x = a-b;").runs)).toBe("x = a[-+-]{+-+}b;");
  });

  it("reads neighbouring replacements as one, instead of keeping the spaces between them", () => {
    expect(show(wordDiff("the quick brown fox", "a slow red fox").runs)).toBe("[-the quick brown-]{+a slow red+} fox");
  });

  it("handles accents, CJK (a word per character) and emoji", () => {
    expect(show(wordDiff("café crème", "café noir").runs)).toBe("café [-crème-]{+noir+}");
    expect(wordTokens("設計レビュー")).toEqual(["設", "計", "レ", "ビ", "ュ", "ー"]);
    expect(show(wordDiff("設計レビュー", "設計会議").runs)).toBe("設計[-レビュー-]{+会議+}");
    expect(show(wordDiff("ship it 🚀", "ship it 🎉").runs)).toBe("ship it [-🚀-]{+🎉+}");
  });

  it("empty sides and identical texts", () => {
    expect(wordDiff("", "new text").runs).toEqual([{ op: "insert", text: "new text" }]);
    expect(wordDiff("old text", "").runs).toEqual([{ op: "delete", text: "old text" }]);
    expect(wordDiff("same", "same").runs).toEqual([{ op: "equal", text: "same" }]);
  });

  it("keeps its cost bounded on long, very different messages: by lines, then whole", () => {
    const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => `w${(i * seed) % 997}`).join(" ");
    const before = Array.from({ length: 200 }, (_, i) => `line ${i}: ${words(7, 20)}`).join("\n");
    const after = Array.from({ length: 200 }, (_, i) => (i % 2 ? `line ${i}: ${words(13, 20)}` : `line ${i}: ${words(7, 20)}`)).join("\n");
    const byLine = wordDiff(before, after, { budget: 200_000 });
    expect(byLine.granularity).toBe("line");
    expect(sides(byLine.runs)).toEqual([before, after]);
    expect(byLine.runs.filter((r) => r.op === "equal").length).toBeGreaterThan(50);
    const whole = wordDiff(before, after, { budget: 10 });
    expect(whole).toEqual({ runs: [{ op: "delete", text: before }, { op: "insert", text: after }], granularity: "whole" });
    const t0 = performance.now();
    const big = wordDiff(words(7, 5000), words(11, 5000));
    expect(sides(big.runs)).toEqual([words(7, 5000), words(11, 5000)]);
    expect(performance.now() - t0).toBeLessThan(5000); // a guard against runaway cost, not a speed target
  });

  it("always gives back both texts", () => {
    const cases: Array<[string, string]> = [
      ["a b c d e", "a c e f"],
      ["  spaced  out ", "spaced in"],
      ["line one\nline two\n", "line one\nline 2\nline three\n"],
      ["```\ncode()\n```", "```js\ncode(1)\n```"],
    ];
    for (const [a, b] of cases) expect(sides(wordDiff(a, b).runs)).toEqual([a, b]);
  });
});
