import { describe, expect, it } from "vitest";
import { osc52Copy, osc777Notification, osc8Link, osc9Notification, safeLinkTarget, supportsHyperlinks } from "../../src/render/terminal.js";

/** Splits terminal output into its escape sequences. */
function sequences(s: string): string[] {
  return s.match(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g) ?? [];
}

describe("terminal escapes", () => {
  it("a hostile notification text cannot end the sequence and start its own", () => {
    const hostile = "hi\x07\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07 there";
    for (const out of [osc9Notification("Ada", hostile), osc777Notification("Ada;x", hostile)]) {
      expect(sequences(out)).toHaveLength(1);
      expect(out).not.toContain("pwned\x07");
      expect(out).not.toContain("52;c");
    }
    expect(osc777Notification("a;b", "c;d")).toBe("\x1b]777;notify;a,b;c,d\x07");
  });

  it("copies text to the clipboard as base64", () => {
    expect(osc52Copy("héllo")).toBe(`\x1b]52;c;${Buffer.from("héllo").toString("base64")}\x07`);
  });

  it("links only http(s) and mailto targets", () => {
    expect(osc8Link("https://example.test/a b", "docs")).toBe("\x1b]8;;https://example.test/a%20b\x1b\\docs\x1b]8;;\x1b\\");
    expect(osc8Link("javascript:alert(1)", "click")).toBe("click");
    expect(safeLinkTarget("file:///etc/passwd")).toBeUndefined();
    expect(osc8Link("https://x.test", "a\x1b]8;;evil\x07b")).toContain("ab");
  });

  it("knows which terminals show hyperlinks", () => {
    expect(supportsHyperlinks({ TERM_PROGRAM: "iTerm.app" })).toBe(true);
    expect(supportsHyperlinks({ TERM: "xterm-256color", TMUX: "/tmp/x" })).toBe(false);
    expect(supportsHyperlinks({ TERM: "xterm-256color" })).toBe(false);
    expect(supportsHyperlinks({ FORCE_HYPERLINK: "1", TMUX: "x" })).toBe(true);
  });
});
