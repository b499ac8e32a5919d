import { describe, expect, it } from "vitest";
import { fold, foldWithMap } from "../../src/render/fold.js";
import { classify, MATCH, matchPositions, prepareQuery, sourceRanges, type Match } from "../../src/render/fuzzy-match.js";

function cls(name: string, typed: string): number {
  const m: Match = { cls: MATCH.none, quality: 0 };
  return classify(fold(name), prepareQuery(fold(typed)), m) ? m.cls : MATCH.none;
}

/** The matched parts of `name` for `typed`, marked with [ ]. */
function marked(name: string, typed: string): string {
  const f = foldWithMap(name);
  const q = prepareQuery(fold(typed));
  const ranges = sourceRanges(f.source, matchPositions(f.text, q, cls(name, typed) as Match["cls"]));
  let out = "";
  let at = 0;
  for (const [a, b] of ranges) {
    out += `${name.slice(at, a)}[${name.slice(a, b)}]`;
    at = b;
  }
  return out + name.slice(at);
}

describe("folding names for matching", () => {
  it("drops case and accents, unifies compatibility forms, spells out the letters Unicode keeps whole", () => {
    expect(fold("Ñandú Çağrı")).toBe("nandu cagri");
    expect(fold("Straße Øster Łódź Æsir")).toBe("strasse oster lodz aesir");
    expect(fold("ＡＢＣ ﬁle")).toBe("abc file");
    expect(fold("設計 🚀")).toBe("設計 🚀");
  });

  it("maps each folded character back to where it came from", () => {
    expect(foldWithMap("Straße").source).toEqual([0, 1, 2, 3, 4, 4, 5, 6]);
    expect(foldWithMap("e\u0301x").text).toBe("ex");
    expect(foldWithMap("🚀a").source).toEqual([0, 0, 2, 3]);
  });
});

describe("match classes and positions", () => {
  it("classes", () => {
    expect(cls("Design", "design")).toBe(MATCH.exact);
    expect(cls("Design review", "des")).toBe(MATCH.prefix);
    expect(cls("ux-design", "design")).toBe(MATCH.wordStart);
    expect(cls("Maya Okafor", "mok")).toBe(MATCH.wordStart);
    expect(cls("release notes", "rel no")).toBe(MATCH.wordStart);
    expect(cls("redesign", "design")).toBe(MATCH.substring);
    expect(cls("dense sightings", "design")).toBe(MATCH.fuzzy);
    expect(cls("general", "xyz")).toBe(MATCH.none);
    // A query's own word breaks must start a word of the name.
    expect(cls("release notes", "rele ase")).toBe(MATCH.fuzzy);
  });

  it("positions on the original text, accents and long characters included", () => {
    expect(marked("Maya Okafor", "mok")).toBe("[M]aya [Ok]afor");
    expect(marked("José Núñez", "nunez")).toBe("José [Núñez]");
    expect(marked("Straße 5", "strasse")).toBe("[Straße] 5");
    expect(marked("🚀 launch plan", "lp")).toBe("🚀 [l]aunch [p]lan");
    expect(marked("design review", "dsgrv")).toBe("[d]e[s]i[g]n [r]e[v]iew");
  });
});
