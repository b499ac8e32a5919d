// Before loadMarkdown() has finished, renderMarkdown must still answer: plain, sanitized, wrapped.
import { describe, expect, it, vi } from "vitest";
import { isMarkdownLoaded, loadMarkdown, renderMarkdown, type RenderContext } from "../../src/render/markdown.js";

const ctx: RenderContext = {
  selfUserId: 1,
  userName: () => undefined,
  isSelfName: () => false,
  channelName: () => undefined,
  emptyTopicName: "general chat",
  color: true,
};

describe("renderMarkdown before loadMarkdown()", () => {
  it("returns sanitized, word-wrapped plain text synchronously", () => {
    expect(isMarkdownLoaded()).toBe(false);
    const out = renderMarkdown("hello \x1b]0;pwned\x07world, this is a **long** line that must wrap\n", ctx, 20);
    expect(out).not.toContain("\x1b");
    expect(out).not.toContain("\x07");
    expect(out.split("\n")).toEqual(["hello world, this is", "a **long** line that", "must wrap"]);
  });

  it("does not throw on odd widths", () => {
    expect(() => renderMarkdown("x y z", ctx, 0)).not.toThrow();
    expect(renderMarkdown("", ctx, 40)).toBe("");
  });

  it("renders richly once loaded, and loading prints nothing", async () => {
    const spies = [vi.spyOn(console, "log"), vi.spyOn(console, "warn"), vi.spyOn(console, "error")];
    await Promise.all([loadMarkdown(), loadMarkdown()]);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    expect(isMarkdownLoaded()).toBe(true);
    expect(renderMarkdown("a **b**", { ...ctx, color: false }, 20)).toBe("a b");
  });
});
