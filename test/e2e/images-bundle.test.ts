/** The built bundle decodes all four formats: the decoders and the WebAssembly travel inside dist/. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GifWriter } from "omggif";
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { runBundle } from "../../bin/run-bundle.cjs";
import { ensureBuilt, ROOT } from "./app.js";

beforeAll(() => ensureBuilt());

describe("the bundle's image decoders", () => {
  it("decode PNG, JPEG, GIF and WebP from dist/ alone", async () => {
    // The bundle as the launcher loads it (its entry is not called: nothing runs but the decoders).
    const { exports } = runBundle(join(ROOT, "dist/termchat.cjs"));
    const { decodeImage } = await (exports.loadImageDecoders as () => Promise<typeof import("../../src/render/images/decode.js")>)();
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
    const sizes = Object.fromEntries(await Promise.all(Object.entries(files).map(async ([k, v]) => [k, await decodeImage(v).then((p) => `${p.width}x${p.height}`)])));
    expect(sizes).toEqual({ png: "2x1", jpeg: "8x8", gif: "2x1", webp: "3x2" });
    const licences = readFileSync(join(ROOT, "dist/THIRD-PARTY-LICENSES.txt"), "utf8");
    for (const pkg of ["@cwasm/webp@", "jpeg-js@", "omggif@", "pngjs@"]) expect(licences).toContain(pkg);
    // The WebAssembly inside @cwasm/webp is libwebp: its BSD licence travels with it.
    expect(licences).toMatch(/libwebp \(compiled to WebAssembly[^\n]*\) \(BSD-3-Clause\)/);
    expect(licences).toContain("Neither the name of Google nor the names of its contributors");
  });
});
