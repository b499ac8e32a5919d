import { describe, expect, it } from "vitest";
import { emojiByName, isEmojiDataLoaded, loadEmojiData, searchEmoji } from "../../src/render/emoji.js";

describe("emoji names", () => {
  it("common names resolve at once, before the full table is loaded", () => {
    expect(isEmojiDataLoaded()).toBe(false);
    expect(emojiByName("+1")).toBe("👍");
    expect(emojiByName("thumbs_up")).toBe("👍");
    expect(emojiByName(":tada:")).toBe("🎉");
    expect(emojiByName("heart")).toBe("❤️");
    expect(emojiByName("rocket")).toBe("🚀");
    expect(emojiByName("eyes")).toBe("👀");
    expect(emojiByName("check")).toBe("✅");
    expect(emojiByName("smile")).toBe("☺️"); // the service's naming
    expect(emojiByName("slight_smile")).toBe("🙂");
    expect(emojiByName("working_on_it")).toBe("🛠️");
    expect(emojiByName("pizza")).toBeUndefined();
  });

  it("the full table adds the rest", async () => {
    await loadEmojiData();
    expect(emojiByName("pizza")).toBe("🍕");
    expect(emojiByName("white_check_mark")).toBe("✅");
    expect(emojiByName("smile")).toBe("☺️"); // ours still wins
    expect(emojiByName("definitely_not_an_emoji")).toBeUndefined();
    expect(emojiByName("")).toBeUndefined();
  });

  it("searchEmoji: by prefix, common names first, limited", async () => {
    await loadEmojiData();
    const thumbs = searchEmoji("thumbs", 5);
    expect(thumbs[0]).toEqual({ name: "thumbs_up", emoji: "👍" });
    expect(thumbs.length).toBeLessThanOrEqual(5);
    expect(searchEmoji("pizz", 3).map((e) => e.name)).toContain("pizza");
    expect(searchEmoji("ta", 50).every((e) => e.name.startsWith("ta"))).toBe(true);
    expect(searchEmoji("", 4)).toHaveLength(4);
    expect(searchEmoji("zzzzzz", 5)).toEqual([]);
  });
});
