import { describe, expect, it } from "vitest";
import { narrowKey, narrowToApi } from "../../src/model/narrow.js";
import { HIGHLIGHT_OFF, HIGHLIGHT_ON, decodeEntities, highlightedTexts, markMatches } from "../../src/ui/search-highlight.js";
import { parseSearchQuery, searchWords, toNarrowTerms, tokenize } from "../../src/ui/search-query.js";
import { fuzzyFilter, fuzzyScore } from "../../src/ui/palette-commands-match.js";

const ME = "maya@lighthouse.test";

describe("the search syntax", () => {
  it("turns bare words into one full-text search term", () => {
    const p = parseSearchQuery("deploy  failed ");
    expect(p.terms).toEqual([{ operator: "search", operand: "deploy failed" }]);
    expect(p.canonical).toBe("deploy failed");
    expect(p.errors).toEqual([]);
  });

  it("reads operators, their legacy names and negation; the words go last", () => {
    const p = parseSearchQuery("stream:general release subject:deploys -is:starred from:me has:links", { selfEmail: ME });
    expect(p.terms).toEqual([
      { operator: "channel", operand: "general" },
      { operator: "topic", operand: "deploys" },
      { operator: "is", operand: "starred", negated: true },
      { operator: "sender", operand: ME },
      { operator: "has", operand: "link" },
      { operator: "search", operand: "release" },
    ]);
  });

  it("keeps quoted phrases and quoted operands whole", () => {
    expect(tokenize('topic:"release plan" "rolling back" x')).toEqual(['topic:"release plan"', '"rolling back"', "x"]);
    const p = parseSearchQuery('channel:"design team" "rolling back" now');
    expect(p.terms).toEqual([
      { operator: "channel", operand: "design team" },
      { operator: "search", operand: '"rolling back" now' },
    ]);
    expect(p.canonical).toBe('channel:"design team" "rolling back" now');
  });

  it("closes an unterminated quote", () => {
    expect(parseSearchQuery('"release plan').terms).toEqual([{ operator: "search", operand: '"release plan"' }]);
  });

  it("reads dm lists, with me resolved", () => {
    const p = parseSearchQuery("dm:omar@lighthouse.test,me is:dm", { selfEmail: ME });
    expect(p.terms).toEqual([
      { operator: "dm", operand: `omar@lighthouse.test,${ME}` },
      { operator: "is", operand: "dm" },
    ]);
  });

  it("negates words, and leaves unknown operators and URLs as words", () => {
    const p = parseSearchQuery("-flaky foo:bar https://example.com/x");
    expect(p.terms).toEqual([
      { operator: "search", operand: "foo:bar https://example.com/x" },
      { operator: "search", operand: "flaky", negated: true },
    ]);
  });

  it("explains what it cannot use", () => {
    expect(parseSearchQuery("near:abc").errors[0]).toMatch(/near: takes a message id/);
    expect(parseSearchQuery("topic:").errors[0]).toMatch(/needs a value/);
    expect(parseSearchQuery("has:cats").errors[0]).toMatch(/has: one of link/);
    expect(parseSearchQuery("   ").errors).toEqual(["Type something to search for"]);
  });

  it("sends message ids as numbers, and legacy operator names to old servers", () => {
    const p = parseSearchQuery("near:42 channel:general dm:a@x.test");
    const terms = toNarrowTerms(p.terms);
    expect(terms[0]).toEqual({ operator: "near", operand: 42 });
    const narrow = { kind: "search" as const, query: p.canonical, terms };
    expect(narrowToApi(narrow)).toEqual(terms);
    expect(narrowToApi(narrow, 200).map((t) => t.operator)).toEqual(["near", "stream", "dm"]);
    expect(narrowToApi(narrow, 100).map((t) => t.operator)).toEqual(["near", "stream", "pm-with"]);
    expect(narrowKey(narrow)).toBe("search:near:42 channel:general dm:a@x.test");
  });

  it("keeps the plain search narrow (no terms) working", () => {
    expect(narrowToApi({ kind: "search", query: "hello" })).toEqual([{ operator: "search", operand: "hello" }]);
  });

  it("lists the words to highlight (not negated ones)", () => {
    expect(searchWords(parseSearchQuery('Deploy "rolling back" -flaky topic:x').terms)).toEqual(["deploy", "rolling", "back"]);
  });
});

describe("search highlights", () => {
  it("takes the highlighted texts from the server's HTML, decoded and sanitized", () => {
    const html = '<p>The <span class="highlight">Deploy</span> of &lt;b&gt; <span class="highlight">R&amp;D</span> <span class="highlight">deploy</span>\u001b]0;x\u0007</p>';
    expect(highlightedTexts(html)).toEqual(["deploy", "r&d"]);
    expect(highlightedTexts('<span class="highlight">a\u001b[31mb</span>')[0]).not.toContain("\u001b");
    expect(decodeEntities("&#x1F600;&#39;&quot;&unknown;")).toBe("😀'\"&unknown;");
  });

  it("marks word starts case-insensitively, outside escape sequences", () => {
    const on = HIGHLIGHT_ON;
    const off = HIGHLIGHT_OFF;
    expect(markMatches("Deploys redeploy deploy", ["deploy"])).toBe(`${on}Deploy${off}s redeploy ${on}deploy${off}`);
    // Inside SGR-styled text: the codes stay whole.
    const styled = "\u001b[1mbold deploy\u001b[22m done";
    expect(markMatches(styled, ["deploy"])).toBe(`\u001b[1mbold ${on}deploy${off}\u001b[22m done`);
    // A match across a style change keeps the code inside the mark.
    expect(markMatches("de\u001b[1mploy\u001b[22m", ["deploy"])).toBe(`${on}de\u001b[1mploy${off}\u001b[22m`);
    expect(markMatches("nothing here", ["deploy"])).toBe("nothing here");
    // Regex characters in a needle are literal.
    expect(markMatches("a (b) c", ["(b)"])).toBe(`a ${on}(b)${off} c`);
  });
});

describe("fuzzy matching for the palette", () => {
  it("needs every character in order and ranks word starts and runs higher", () => {
    expect(fuzzyScore("rnm", "Rename channel")).toBeDefined();
    expect(fuzzyScore("xyz", "Rename channel")).toBeUndefined();
    const items = ["Change channel colour", "Rename channel", "Mark channel as read", "Mute topic"];
    expect(fuzzyFilter("ren", items, (s) => s)[0]).toBe("Rename channel");
    expect(fuzzyFilter("mute", items, (s) => s)).toEqual(["Mute topic"]);
    expect(fuzzyFilter("", items, (s) => s)).toEqual(items);
    // Between two contiguous matches, the earlier one wins.
    const two = ["Register a push notification token (APNs)", "Channel notification settings"];
    expect(fuzzyFilter("notif", two, (s) => s)[0]).toBe("Channel notification settings");
  });
});
