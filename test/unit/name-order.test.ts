/**
 * The order of names in lists (src/model/name-order.ts): simple names compared without ICU's
 * collator must come out exactly as the collator orders them, and everything else goes to it.
 */
import { describe, expect, it } from "vitest";
import { compareSimpleNames, localeKeepsRootOrder, nameOrder } from "../../src/model/name-order.js";

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** A small deterministic generator (the same names every run). */
function generator(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("simple names", () => {
  it("are ordered exactly as the collator orders them", () => {
    const next = generator(7);
    const alphabet = "aAbBzZ09 _-.1";
    const name = () => {
      let out = "";
      const n = Math.floor(next() * 9);
      for (let i = 0; i < n; i++) out += next() < 0.3 ? String(Math.floor(next() * 1200)).padStart(Math.floor(next() * 4), "0") : alphabet[Math.floor(next() * alphabet.length)];
      return out;
    };
    const order = nameOrder({ LANG: "en_US.UTF-8" });
    let simple = 0;
    for (let i = 0; i < 20_000; i++) {
      const a = name();
      const b = next() < 0.2 ? a.toUpperCase() : name();
      const here = compareSimpleNames(a, b);
      if (here !== undefined) {
        simple++;
        expect(Math.sign(here), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(collator.compare(a, b));
      }
      expect(order(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(collator.compare(a, b));
    }
    // Only numbers of more than 15 figures (two generated ones side by side) leave this alphabet's path.
    expect(simple).toBeGreaterThan(18_000);
  });

  it("put spaces and punctuation before digits, digits before letters, and numbers by value", () => {
    const sorted = ["b", "a10", "B2", "a9", "_x", "a 1", "-x", ".x", "7", "a", "A01"].sort((a, b) => Math.sign(compareSimpleNames(a, b)!));
    expect(sorted).toEqual(["_x", "-x", ".x", "7", "a", "a 1", "A01", "a9", "a10", "b", "B2"].map((s) => s));
    expect(compareSimpleNames("a01", "a1")).toBe(0);
    expect(compareSimpleNames("General", "general")).toBe(0);
  });

  it("leave anything else to the collator: letters beyond ASCII, other punctuation, very long numbers", () => {
    for (const [a, b] of [
      ["Zoë", "Zoe"],
      ["café", "cafe"],
      ["a/b", "a-b"],
      ["x1234567890123456", "x2"],
      ["Ærø", "Aero"],
    ]) {
      expect(compareSimpleNames(a!, b!), `${a} ${b}`).toBeUndefined();
      expect(nameOrder({ LANG: "en_US.UTF-8" })(a!, b!)).toBe(collator.compare(a!, b!));
    }
  });
});

describe("the locale", () => {
  it("keeps the root order in English, C and POSIX, and when nothing is set", () => {
    expect(localeKeepsRootOrder({})).toBe(true);
    expect(localeKeepsRootOrder({ LANG: "C.UTF-8" })).toBe(true);
    expect(localeKeepsRootOrder({ LANG: "en_GB.UTF-8", LANGUAGE: "en_GB:en" })).toBe(true);
    expect(localeKeepsRootOrder({ LC_ALL: "POSIX" })).toBe(true);
  });

  it("in any other language, sends every name to the collator", () => {
    expect(localeKeepsRootOrder({ LANG: "da_DK.UTF-8" })).toBe(false);
    expect(localeKeepsRootOrder({ LANG: "en_US.UTF-8", LC_COLLATE: "cs_CZ.UTF-8" })).toBe(false);
    expect(localeKeepsRootOrder({ LANGUAGE: "en:et" })).toBe(false);
    // Danish sorts "aa" after "z": the order must be the Danish collator's, not the root one.
    const danish = new Intl.Collator("da", { sensitivity: "base", numeric: true });
    const order = nameOrder({ LANG: "da_DK.UTF-8" });
    expect(["aarhus", "zebra"].sort(order)).toEqual(["aarhus", "zebra"].sort((a, b) => new Intl.Collator(undefined, { sensitivity: "base", numeric: true }).compare(a, b)));
    expect(danish.compare("aarhus", "zebra")).toBe(1);
  });
});
