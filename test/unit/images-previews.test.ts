import { describe, expect, it } from "vitest";
import { ImagePreviews } from "../../src/ui/images/image-previews.js";
import { imageRefs, previewPath } from "../../src/ui/images/image-refs.js";
import { imageLabel } from "../../src/ui/images/preview-lines.js";
import type { Pixels } from "../../src/render/images/pixels.js";

const solid = (side: number): Pixels => ({ width: side, height: side, data: new Uint8Array(side * side * 4).fill(200) });

async function settled(p: ImagePreviews, path: string) {
  for (let i = 0; i < 500; i++) {
    const s = p.get(path);
    if (s.status !== "loading") return s;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`${path} still loading`);
}

describe("image links in a message", () => {
  it("finds uploaded images (relative or on the organization's own site), once each, not in code", () => {
    const content = [
      "plan: [floor-plan.png](/user_uploads/2/ab/floor-plan.png) and again [same](/user_uploads/2/ab/floor-plan.png)",
      "![a photo](https://chat.example.com/user_uploads/2/cd/photo.JPG)",
      "[elsewhere](https://evil.example/user_uploads/2/x/y.png) [notes](/user_uploads/2/ef/notes.txt) [up](/user_uploads/../secret.png)",
      "```\n[in code](/user_uploads/2/gh/code.png)\n```",
      "`[inline](/user_uploads/2/ij/inline.gif)` [anim](/user_uploads/2/kl/anim.webp)",
    ].join("\n");
    expect(imageRefs(content, "https://chat.example.com")).toEqual([
      { path: "/user_uploads/2/ab/floor-plan.png", label: "floor-plan.png" },
      { path: "/user_uploads/2/cd/photo.JPG", label: "a photo" },
      { path: "/user_uploads/2/kl/anim.webp", label: "anim" },
    ]);
  });

  it("asks for the service's still thumbnail when the server lists formats", () => {
    const formats = [
      { name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false },
      { name: "840x560-anim.webp", max_width: 840, max_height: 560, format: "webp", animated: true },
      { name: "300x200.webp", max_width: 300, max_height: 200, format: "webp", animated: false },
    ];
    expect(previewPath("/user_uploads/2/ab/x.png", formats)).toBe("/user_uploads/thumbnail/2/ab/x.png/840x560.webp");
    expect(previewPath("/user_uploads/2/ab/x.png", undefined)).toBe("/user_uploads/2/ab/x.png");
  });

  it("labels are sanitized and shortened; empty ones fall back to the file name", () => {
    expect(imageLabel("\x1b]0;title\x07evil\x1b[31m.png", "/user_uploads/2/a/x.png")).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(imageLabel("", "/user_uploads/2/a/my%20plan.png")).toBe("my plan.png");
    expect([...imageLabel("x".repeat(200), "/p.png")]).toHaveLength(60);
  });
});

describe("the preview cache", () => {
  it("fetches lazily and once, and keeps what fits its byte budget (least recently used out)", async () => {
    const fetched: string[] = [];
    const previews = new ImagePreviews(
      async (path) => {
        fetched.push(path);
        return new Uint8Array([Number(path.slice(1))]);
      },
      { maxBytes: 900, decode: async (b) => solid(b[0]!) },
    );
    expect(fetched).toEqual([]);
    expect(previews.get("/10").status).toBe("loading");
    expect(previews.get("/10").status).toBe("loading");
    expect((await settled(previews, "/10")).status).toBe("ready");
    await settled(previews, "/11");
    expect(fetched).toEqual(["/10", "/11"]);
    expect(previews.bytes).toBe(10 * 10 * 4 + 11 * 11 * 4);
    previews.get("/10"); // /10 used more recently than /11
    await settled(previews, "/9");
    // Over budget: /11, the least recently used, went; /10 and /9 stay.
    expect(previews.bytes).toBeLessThanOrEqual(previews.maxBytes);
    expect(previews.stats.evictions).toBe(1);
    expect(previews.get("/10").status).toBe("ready");
    expect(previews.get("/11").status).toBe("loading"); // asked again: fetched again
    expect(fetched).toEqual(["/10", "/11", "/9", "/11"]);
  });

  it("a failed fetch or decode is a state with one line, and listeners hear of it", async () => {
    const previews = new ImagePreviews(async () => {
      throw new Error("File not found\nstack…");
    });
    let heard = 0;
    previews.onChange(() => heard++);
    expect(await settled(previews, "/user_uploads/x.png")).toEqual({ status: "failed", error: "File not found" });
    expect(heard).toBe(1);
  });

  it("big images are kept scaled down to the long side limit", async () => {
    const previews = new ImagePreviews(async () => new Uint8Array([0]), { decode: async () => solid(2048), maxSide: 256 });
    const s = await settled(previews, "/big");
    expect(s.status === "ready" && [s.pixels.width, s.pixels.height]).toEqual([256, 256]);
  });
});

describe("the setting", () => {
  it("imagePreviews: false is read from the settings file, and with graphics off no preview lines are made", async () => {
    const { parseSettings, DEFAULT_SETTINGS } = await import("../../src/config/settings.js");
    const { imagePreviewLines } = await import("../../src/ui/images/preview-lines.js");
    const eg = await import("../fixtures/example.js");
    expect(DEFAULT_SETTINGS.imagePreviews).toBe(true);
    expect(parseSettings({ imagePreviews: false }).settings.imagePreviews).toBe(false);
    expect(parseSettings({ imagePreviews: "no" }).problems[0]).toMatch(/^settings: imagePreviews: /);
    let fetches = 0;
    const previews = new ImagePreviews(async () => (fetches++, new Uint8Array()));
    const m = eg.streamMessage({ content: "[p.png](/user_uploads/2/a/p.png)" });
    expect(imagePreviewLines({ previews, graphics: { mode: "off", depth: "truecolor" } }, m, 60)).toBeUndefined();
    expect(fetches).toBe(0);
    const on = imagePreviewLines({ previews, graphics: { mode: "halfblocks", depth: "truecolor" } }, m, 60);
    expect(on?.lines.map((l) => l.text)).toEqual(["▨ p.png (loading preview…)"]);
  });
});

describe("thumbnails", () => {
  it("the store keeps the server's thumbnail formats; previews fetch the thumbnail, and the file when there is none", async () => {
    const eg = await import("../fixtures/example.js");
    const { imagePreviewLines } = await import("../../src/ui/images/preview-lines.js");
    const { originalPath } = await import("../../src/ui/images/image-refs.js");
    const formats = [{ name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false }];
    const store = eg.store({ server_thumbnail_formats: [...formats, { name: 3 }] });
    expect(store.realm.thumbnailFormats).toEqual(formats);
    expect(eg.store().realm.thumbnailFormats).toEqual([]);
    const asked: string[] = [];
    const previews = new ImagePreviews(async (path) => (asked.push(path), new Uint8Array()), { decode: async () => solid(4) });
    const m = eg.streamMessage({ content: "[p.png](/user_uploads/2/a/p.png)" });
    imagePreviewLines({ previews, graphics: { mode: "halfblocks", depth: "256" }, thumbnailFormats: store.realm.thumbnailFormats }, m, 60);
    await settled(previews, "/user_uploads/thumbnail/2/a/p.png/840x560.webp");
    expect(asked).toEqual(["/user_uploads/thumbnail/2/a/p.png/840x560.webp"]);
    expect(originalPath("/user_uploads/thumbnail/2/a/p.png/840x560.webp")).toBe("/user_uploads/2/a/p.png");
    expect(originalPath("/user_uploads/2/a/p.png")).toBeUndefined();
  });
});
