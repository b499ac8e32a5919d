import { describe, expect, it } from "vitest";
import { ImagePreviews } from "../../src/ui/images/image-previews.js";
import { imageRefs, previewPath } from "../../src/ui/images/image-refs.js";
import { drawnPixels, fileSize, imageLabel, imagePreviewLines } from "../../src/ui/images/preview-lines.js";
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

  it("the smallest still format that covers the size drawn; the largest when none does", () => {
    const formats = [
      { name: "840x560-anim.webp", max_width: 840, max_height: 560, format: "webp", animated: true },
      { name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false },
      { name: "300x200.webp", max_width: 300, max_height: 200, format: "webp", animated: false },
      { name: "100x75-anim.webp", max_width: 100, max_height: 75, format: "webp", animated: true },
    ];
    const path = (w: number, h: number) => previewPath("/user_uploads/2/ab/x.png", formats, { width: w, height: h }).split("/").pop();
    expect(path(80, 16)).toBe("300x200.webp"); // half-blocks: 80 cells, 8 rows of two pixels
    expect(path(800, 160)).toBe("840x560.webp"); // a terminal drawing pixels: 80×8 cells of 10×20
    expect(path(2000, 1000)).toBe("840x560.webp");
    expect(previewPath("/user_uploads/thumbnail/2/ab/x.png/840x560.webp", formats, { width: 80, height: 16 })).toBe("/user_uploads/thumbnail/2/ab/x.png/840x560.webp");
  });

  it("the size drawn: two pixels a cell as half-blocks, the cell's pixels where the terminal draws them", () => {
    expect(drawnPixels({ graphics: { mode: "halfblocks", depth: "256" } }, 80, 8)).toEqual({ width: 80, height: 16 });
    expect(drawnPixels({ graphics: { mode: "kitty", depth: "truecolor" } }, 80, 8)).toEqual({ width: 800, height: 160 });
    expect(drawnPixels({ graphics: { mode: "sixel", depth: "truecolor" }, cellPx: { width: 9, height: 18 } }, 80, 8)).toEqual({ width: 720, height: 144 });
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

  it("an image too large to preview is refused from its header on the decoder's side: its name, size and file size are shown", async () => {
    const eg = await import("../fixtures/example.js");
    const huge = Buffer.from("89504e470d0a1a0a0000000d4948445200004e2000004e200806000000", "hex");
    const previews = new ImagePreviews(async () => huge);
    const m = eg.streamMessage({ content: "[huge.png](/user_uploads/2/a/huge.png)" });
    const setup = { previews, graphics: { mode: "halfblocks" as const, depth: "256" as const } };
    imagePreviewLines(setup, m, 100);
    const state = await settled(previews, "/user_uploads/2/a/huge.png");
    expect(state).toEqual({ status: "failed", error: "too large to preview (20000×20000)", tooLarge: { width: 20000, height: 20000, bytes: huge.length } });
    expect(imagePreviewLines(setup, m, 100)?.lines.map((l) => l.text)).toEqual([`▨ huge.png — 20000×20000 px, ${huge.length} B: too large to preview (L opens or saves it)`]);
    expect([fileSize(1023), fileSize(100 * 1024), fileSize(1.5 * 1024 * 1024)]).toEqual(["1023 B", "100 KiB", "1.5 MiB"]);
    previews.close();
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
