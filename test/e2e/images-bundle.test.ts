/**
 * The built bundle decodes all four formats on its decoder thread: the thread starts from the
 * code the bundle carries (no file of its own), and its decoders and WebAssembly travel inside
 * dist/termchat.cjs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GifWriter } from "omggif";
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { runBundle } from "../../bin/run-bundle.cjs";
import type { ImageDecoderHost } from "../../src/render/images/worker-host.js";
import { ensureBuilt, ROOT } from "./app.js";

beforeAll(() => ensureBuilt());

describe("the bundle's image decoders", () => {
  it("decode PNG, JPEG, GIF and WebP on the decoder thread from dist/ alone", async () => {
    // The bundle as the launcher loads it (its entry is not called: nothing runs but the decoder's host).
    const { exports } = runBundle(join(ROOT, "dist/termchat.cjs"));
    const host = await (exports.imageDecoderHost as () => Promise<ImageDecoderHost>)();
    const png = new PNG({ width: 2, height: 1 });
    png.data = Buffer.from([255, 0, 0, 255, 0, 0, 255, 255]);
    const gifBuf = new Uint8Array(256);
    const gif = new GifWriter(gifBuf, 2, 1, { palette: [0xff0000, 0x0000ff] });
    gif.addFrame(0, 0, 2, 1, [0, 1]);
    const files: Record<string, Uint8Array> = {
      png: PNG.sync.write(png),
      jpeg: jpeg.encode({ width: 8, height: 8, data: Buffer.alloc(256, 128) }, 90).data,
      gif: gifBuf.subarray(0, gif.end()),
      webp: readFileSync(join(ROOT, "test/fixtures/images/solid.webp")),
    };
    const sizes: Record<string, string> = {};
    for (const [k, v] of Object.entries(files)) sizes[k] = await host.decode(v, 100, 100).then((p) => `${p.width}x${p.height}`);
    expect(sizes).toEqual({ png: "2x1", jpeg: "8x8", gif: "2x1", webp: "3x2" });
    expect(host.stats).toMatchObject({ threads: 1, decoded: 4 });
    host.close();
    const licences = readFileSync(join(ROOT, "dist/THIRD-PARTY-LICENSES.txt"), "utf8");
    // The decoders are our own now; libwebp's WebAssembly (in @cwasm/webp) is on the thread.
    expect(licences).toContain("@cwasm/webp@");
    expect(licences).toMatch(/libwebp \(compiled to WebAssembly[^\n]*\) \(BSD-3-Clause\)/);
    expect(licences).toContain("Neither the name of Google nor the names of its contributors");
  });
});
