// Files on the reference server over real HTTP: upload (multipart), download
// with and without credentials, the organization's size limit, temporary
// URLs, the uploader's attachment list and deletion, and inline image
// previews in rendered messages.

import { describe, expect, it } from "vitest";
import type { DemoAccount, RunningServer } from "../../src/server/index.js";
import { responseProblems } from "../fixtures/openapi-shape.js";
import { account, client, pending, register, send, start, type Json } from "./server-test-client.js";

function basic(who: DemoAccount): string {
  return "Basic " + Buffer.from(`${who.email}:${who.apiKey}`).toString("base64");
}

async function upload(server: RunningServer, who: DemoAccount, name: string, bytes: Uint8Array, type = "application/octet-stream"): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: "POST",
    headers: { Authorization: basic(who) },
    body: form,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function download(server: RunningServer, path: string, who?: DemoAccount): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    headers: who ? { Authorization: basic(who) } : {},
    signal: AbortSignal.timeout(10_000),
  });
}

const bytes = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7 + 3) % 256);

describe("uploads", () => {
  it("stores a file, answers its link, and serves it byte-identical only with credentials", async () => {
    const server = await start();
    const alice = account(server, "member", 0);
    const up = await upload(server, alice, "quarterly report (final).bin", bytes);
    expect(up.status).toBe(200);
    expect(up.body["url"]).toMatch(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[\w-]+\/quarterly-report-final.bin$/);
    expect(up.body["uri"]).toBe(up.body["url"]);
    expect(up.body["filename"]).toBe("quarterly-report-final.bin");

    const ok = await download(server, up.body["url"] as string, alice);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-disposition")).toContain("quarterly-report-final.bin");
    expect(Buffer.from(await ok.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    const anonymous = await download(server, up.body["url"] as string);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as Json)["code"]).toBe("UNAUTHORIZED");
    const viaKey = await download(server, `${up.body["url"] as string}?api_key=${alice.apiKey}`);
    expect(viaKey.status).toBe(200);
  });

  it("lets other users download a file once a message they can read links it", async () => {
    const server = await start();
    const alice = account(server, "member", 0);
    const bob = account(server, "member", 1);
    const up = await upload(server, alice, "notes.txt", new TextEncoder().encode("meeting notes\n"), "text/plain");
    const url = up.body["url"] as string;
    expect((await download(server, url, bob)).status).toBe(404);
    await send(client(server, alice), { type: "stream", to: "general", topic: "notes", content: `[notes.txt](${url})` });
    const res = await download(server, url, bob);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("meeting notes\n");
  });

  it("refuses a file over the organization's limit with the service's text, and says the limit in register", async () => {
    const server = await start({ maxFileUploadSizeMib: 1 });
    const alice = account(server, "member", 0);
    const state = await register(client(server, alice));
    expect(state["max_file_upload_size_mib"]).toBe(1);
    const big = await upload(server, alice, "big.bin", new Uint8Array(1024 * 1024 + 10));
    expect(big.status).toBe(400);
    expect(big.body["msg"]).toBe("Uploaded file is larger than the allowed limit of 1 MiB");
    const none = await client(server, alice)("POST", "/user_uploads", {});
    expect(none.body["msg"]).toBe("You must specify a file to upload");
  });

  it("answers a temporary URL that works without credentials until it expires", async () => {
    let now = Date.UTC(2026, 0, 5, 12);
    const server = await start({ now: () => now });
    const alice = account(server, "member", 0);
    const up = await upload(server, alice, "photo.png", bytes, "image/png");
    const temp = await client(server, alice)("GET", up.body["url"] as string);
    expect(temp.status).toBe(200);
    // The file's path has slashes, so the recorder cannot match it to the documented template.
    expect(responseProblems("GET", "/user_uploads/2/photo.png", temp.body)).toEqual([]);
    const tempUrl = temp.body["url"] as string;
    expect(tempUrl).toMatch(/^\/user_uploads\/temporary\/[0-9a-f]+\/photo.png$/);
    const res = await download(server, tempUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    now += 61_000;
    expect((await download(server, tempUrl)).status).toBe(404);
    const stranger = await client(server, account(server, "member", 1))("GET", up.body["url"] as string);
    expect(stranger.status).toBe(404);
  });

  it("lists the user's attachments with the messages linking them, and deletes one", async () => {
    const server = await start();
    const alice = account(server, "member", 0);
    const api = client(server, alice);
    const queue = await register(api, { event_types: ["attachment"] });
    const up = await upload(server, alice, "plan.txt", new TextEncoder().encode("plan"), "text/plain");
    const id = await send(api, { type: "stream", to: "general", topic: "plan", content: `see [plan.txt](${up.body["url"] as string})` });
    const list = await api("GET", "/attachments");
    const mine = (list.body["attachments"] as Json[]).find((a) => a["name"] === "plan.txt");
    expect(mine).toMatchObject({ size: 4, path_id: (up.body["url"] as string).slice("/user_uploads/".length) });
    expect(mine!["messages"]).toEqual([{ id, date_sent: expect.any(Number) }]);
    expect(list.body["upload_space_used"]).toBeGreaterThanOrEqual(4);

    const del = await api("DELETE", `/attachments/${mine!["id"] as number}`);
    expect(del.status).toBe(200);
    const after = await api("GET", "/attachments");
    expect((after.body["attachments"] as Json[]).some((a) => a["name"] === "plan.txt")).toBe(false);
    expect((await download(server, up.body["url"] as string, alice)).status).toBe(404);
    const again = await api("DELETE", `/attachments/${mine!["id"] as number}`);
    expect(again.body["msg"]).toBe("Invalid attachment");

    const ops = (await pending(api, queue["queue_id"] as string)).map((e) => `${e["type"]}:${e["op"]}`);
    expect(ops).toEqual(["attachment:add", "attachment:update", "attachment:remove"]);
  });

  it("renders a linked uploaded image with an inline preview", async () => {
    const server = await start();
    const alice = account(server, "member", 0);
    const api = client(server, alice);
    const up = await upload(server, alice, "chart.png", bytes, "image/png");
    const url = up.body["url"] as string;
    const id = await send(api, { type: "stream", to: "general", topic: "charts", content: `[chart.png](${url})` });
    const got = await api("GET", `/messages/${id}`);
    expect((got.body["message"] as Json)["content"]).toBe(
      `<p><a href="${url}">chart.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="chart.png"><img src="${url}"></a></div>`,
    );
  });

  it("seeds a linked image, a text file, a poll and a to-do list that clients can draw", async () => {
    const server = await start();
    const maya = account(server, "owner", 0);
    const api = client(server, maya);
    const design = await api("GET", "/messages", {
      anchor: "newest", num_before: 50, num_after: 0, apply_markdown: true,
      narrow: [{ operator: "channel", operand: "design" }, { operator: "topic", operand: "new office" }],
    });
    const messages = design.body["messages"] as Json[];
    const image = messages.find((m) => (m["content"] as string).includes("message_inline_image"))!;
    // The preview's link is the file; its <img> shows the service's thumbnail of it.
    const [, href, src] = /<div class="message_inline_image"><a href="([^"]+)"[^>]*><img [^>]*src="([^"]+)"/.exec(image["content"] as string)!;
    expect(src).toBe(`/user_uploads/thumbnail/${href!.slice("/user_uploads/".length)}/840x560.webp`);
    expect((await download(server, src!, maya)).headers.get("content-type")).toBe("image/webp");
    const png = await download(server, href!, maya);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe("PNG");
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([64, 48]);

    const poll = messages.find((m) => (m["content"] as string).startsWith("<p>/poll"));
    expect(poll, JSON.stringify(messages.map((m) => m["content"]))).toBeDefined();
    const subs = (poll!["submessages"] as Json[]).map((s) => JSON.parse(s["content"] as string) as Json);
    expect(subs[0]).toEqual({ widget_type: "poll", extra_data: { question: "Which day should we move?", options: ["Friday 12th", "Monday 15th"] } });
    expect(subs.filter((s) => s["type"] === "vote")).toHaveLength(4);

    const eng = await api("GET", "/messages", {
      anchor: "newest", num_before: 50, num_after: 0,
      narrow: [{ operator: "channel", operand: "engineering" }, { operator: "topic", operand: "release 2.5 checklist" }],
    });
    const todo = (eng.body["messages"] as Json[]).find((m) => (m["content"] as string).startsWith("<p>/todo"))!;
    const first = JSON.parse((todo["submessages"] as Json[])[0]!["content"] as string) as Json;
    expect(first["widget_type"]).toBe("todo");
    expect((first["extra_data"] as Json)["tasks"]).toHaveLength(3);
  });
});
