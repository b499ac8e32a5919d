/**
 * The reference server's thumbnails over real HTTP, as the service makes them: the formats in
 * register, WebP files that fit the image inside the format's size (never enlarged), the
 * image-bomb limits, animated formats only for animations, the closest made format for an
 * unlisted one, access as for the file itself, and the rendered message's <img> (thumbnail
 * source and the `data-*` attributes the changelog introduced by the server's feature level).
 */
import { readFileSync } from "node:fs";
import { GifWriter } from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeImage } from "../../src/render/images/decode.js";
import { FEATURE_LEVEL } from "../../src/server/context.js";
import { THUMBNAIL_FORMATS } from "../../src/server/image-thumbnails.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";
import { writePng } from "../fixtures/images/png-writer.js";

const facts = JSON.parse(readFileSync(new URL("../fixtures/reference/image-previews.json", import.meta.url), "utf8")) as { featureLevels: Record<string, number[]> };
const description = JSON.parse(readFileSync(new URL("../fixtures/reference/api-description.json", import.meta.url), "utf8")) as { paths: Record<string, unknown> };

let fx: ServerFixture;
let auth: string;
beforeAll(async () => {
  fx = await withServer();
  auth = "Basic " + Buffer.from(`${fx.owner.email}:${fx.owner.apiKey}`).toString("base64");
});
afterAll(async () => {
  await fx?.close();
});

async function upload(name: string, bytes: Uint8Array, type = "image/png"): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([Buffer.from(bytes)], { type }), name);
  const res = await fetch(`${fx.server.url}/api/v1/user_uploads`, { method: "POST", headers: { authorization: auth }, body: form });
  return ((await res.json()) as { url: string }).url;
}

const get = (path: string, who = auth) => fetch(`${fx.server.url}${path}`, { headers: { authorization: who } });
const thumb = (url: string, format: string) => `/user_uploads/thumbnail/${url.slice("/user_uploads/".length)}/${format}`;

const gradient = (w: number, h: number) => writePng({ width: w, height: h, colorType: 2, bitDepth: 8, sample: (x, y) => [Math.round((x / w) * 255), Math.round((y / h) * 255), 90] });

function animatedGif(w: number, h: number, frames: number): Uint8Array {
  const buf = new Uint8Array(1024 * 1024);
  const writer = new GifWriter(buf, w, h, { palette: [0xff0000, 0x00ff00, 0x0000ff, 0xffffff], loop: 0 });
  for (let f = 0; f < frames; f++) writer.addFrame(0, 0, w, h, new Array(w * h).fill(f % 4), { delay: 10 });
  return buf.slice(0, writer.end());
}

describe("thumbnails of uploads", () => {
  it("register lists the service's formats, in the shape and at the feature level the public description gives", async () => {
    const raw = (await (await fetch(`${fx.server.url}/api/v1/register`, { method: "POST", headers: { authorization: auth }, body: new URLSearchParams({ fetch_event_types: '["realm"]' }) })).json()) as Record<string, unknown>;
    expect(raw["server_thumbnail_formats"]).toEqual([
      { name: "840x560-anim.webp", max_width: 840, max_height: 560, format: "webp", animated: true },
      { name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false },
    ]);
    expect(FEATURE_LEVEL).toBeGreaterThanOrEqual(facts.featureLevels["server_thumbnail_formats"]![0]!);
    expect(JSON.stringify(description.paths["/register"])).toContain('"server_thumbnail_formats":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"name":{"type":"string"},"max_width":{"type":"integer"},"max_height":{"type":"integer"},"format":{"type":"string"},"animated":{"type":"boolean"}}}}');
  });

  it("a still image's thumbnail is a WebP that fits it in 840×560 without enlarging; the animated format is not made of it", async () => {
    const url = await upload("wide.png", gradient(1680, 700));
    const res = await get(thumb(url, "840x560.webp"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const image = await decodeImage(bytes);
    expect([image.source.kind, image.width, image.height]).toEqual(["webp", 840, 350]);
    // The gradient survives: red grows to the right, green downwards.
    const at = (x: number, y: number) => [...image.data.subarray((y * 840 + x) * 4, (y * 840 + x) * 4 + 3)];
    expect(at(0, 0)[0]).toBeLessThan(10);
    expect(at(839, 0)[0]).toBeGreaterThan(245);
    expect(at(0, 349)[1]).toBeGreaterThan(245);
    // A small image is not enlarged.
    const small = await decodeImage(new Uint8Array(await (await get(thumb(await upload("small.png", gradient(40, 30)), "840x560.webp"))).arrayBuffer()));
    expect([small.width, small.height]).toEqual([40, 30]);
    // A still image asked for as an animation gets the still thumbnail (the closest made).
    const anim = await get(thumb(url, "840x560-anim.webp"));
    expect(anim.status).toBe(200);
    expect(Buffer.from(await anim.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it("an animated GIF gets an animated WebP of its frames, and the still format its first frame", async () => {
    const url = await upload("blink.gif", animatedGif(60, 40, 5), "image/gif");
    const anim = Buffer.from(await (await get(thumb(url, "840x560-anim.webp"))).arrayBuffer());
    expect(anim.toString("latin1", 12, 16)).toBe("VP8X");
    expect(anim[20]! & 0x02).toBe(0x02); // the animation flag
    expect(anim.toString("latin1").split("ANMF").length - 1).toBe(5);
    const still = await decodeImage(new Uint8Array(await (await get(thumb(url, "840x560.webp"))).arrayBuffer()));
    expect([still.width, still.height, ...still.data.subarray(0, 4)]).toEqual([60, 40, 255, 0, 0, 255]);
  });

  it("image-bomb limits: no thumbnail of a still image over 90 megapixels, nor of an animation whose three frames pass 30", async () => {
    const bomb = gradient(1, 1);
    bomb.writeUInt32BE(10_000, 16);
    bomb.writeUInt32BE(9_001, 20); // 90.01 megapixels in a file of a few dozen bytes
    const url = await upload("bomb.png", bomb);
    expect((await get(thumb(url, "840x560.webp"))).status).toBe(404);
    expect((await get(url)).status).toBe(200); // the file itself is still there to download
    const gif = Buffer.from(animatedGif(4, 4, 3));
    gif.writeUInt16LE(4000, 6);
    gif.writeUInt16LE(2501, 8); // 10.004 megapixels a frame, three frames
    expect((await get(thumb(await upload("anim-bomb.gif", gif, "image/gif"), "840x560-anim.webp"))).status).toBe(404);
  });

  it("not an image, an unknown format name or a stranger: not found", async () => {
    const text = await upload("notes.png", Buffer.from("not really a picture"), "image/png");
    expect((await get(thumb(text, "840x560.webp"))).status).toBe(404);
    const url = await upload("ok.png", gradient(20, 20));
    expect((await get(thumb(url, "large.webp"))).status).toBe(404);
    // An unlisted size: nothing while nothing is made; once made, the closest made.
    expect((await get(thumb(url, "300x200.webp"))).status).toBe(404);
    const made = Buffer.from(await (await get(thumb(url, "840x560.webp"))).arrayBuffer());
    expect(Buffer.from(await (await get(thumb(url, "300x200.webp"))).arrayBuffer()).equals(made)).toBe(true);
    const stranger = fx.account("member");
    const other = "Basic " + Buffer.from(`${stranger.email}:${stranger.apiKey}`).toString("base64");
    expect((await get(thumb(url, "840x560.webp"), other)).status).toBe(404);
  });

  it("the rendered message's preview names the default thumbnail and the original's size and type", async () => {
    const url = await upload("plan.png", gradient(1200, 900));
    const gifUrl = await upload("blink.gif", animatedGif(8, 8, 2), "image/gif");
    const api = async (method: string, path: string, params: Record<string, string>) => {
      const body = new URLSearchParams(params);
      const res = await fetch(`${fx.server.url}/api/v1/${path}${method === "GET" ? `?${body}` : ""}`, { method, headers: { authorization: auth }, ...(method !== "GET" && { body }) });
      return (await res.json()) as Record<string, unknown>;
    };
    const sent = await api("POST", "messages", { type: "stream", to: "general", topic: "thumbnails", content: `[plan](${url}) and [blink](${gifUrl})` });
    const html = ((await api("GET", `messages/${String(sent["id"])}`, { apply_markdown: "true" }))["message"] as { content: string }).content;
    for (const [name, levels] of Object.entries(facts.featureLevels)) if (name.startsWith("data-") && levels[0]! <= FEATURE_LEVEL && name !== "data-transcoded-image") expect(html).toContain(name);
    expect(html).toContain(`<img data-original-content-type="image/png" data-original-dimensions="1200x900" src="${thumb(url, "840x560.webp")}">`);
    expect(html).toContain(`data-original-dimensions="8x8" src="${thumb(gifUrl, "840x560-anim.webp")}" data-animated="true">`);
  });
});

describe("a server without thumbnails", () => {
  it("lists none and makes none", async () => {
    const plain = await withServer({ thumbnails: false });
    try {
      const a = plain.owner;
      const basic = "Basic " + Buffer.from(`${a.email}:${a.apiKey}`).toString("base64");
      const reg = (await (await fetch(`${plain.server.url}/api/v1/register`, { method: "POST", headers: { authorization: basic } })).json()) as Record<string, unknown>;
      expect(reg["server_thumbnail_formats"]).toEqual([]);
      expect(THUMBNAIL_FORMATS.length).toBe(2);
    } finally {
      await plain.close();
    }
  });
});
