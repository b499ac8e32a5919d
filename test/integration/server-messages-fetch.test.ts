// GET /messages in detail (every anchor, message_ids, the limit, empty topic
// names, apply_markdown both ways), one message, rendering, and the legacy
// send forms.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { account, client, ids, send, start, type Api, type Json } from "./server-test-client.js";

let server: RunningServer;
let maya: Api;
let all: Json[];

beforeAll(async () => {
  server = await start();
  maya = client(server, server.accounts[0]!);
  all = (await maya("GET", "/messages", { anchor: "oldest", num_before: 0, num_after: 5000, apply_markdown: false })).body["messages"];
});

const get = async (params: Record<string, unknown>) => {
  const res = await maya("GET", "/messages", params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const idsOf = (body: Json) => (body["messages"] as Json[]).map((m) => m["id"] as number);

describe("anchors", () => {
  it("numeric anchor with include_anchor, found_* flags and clamping", async () => {
    const mid = all[50]!.id as number;
    const around = await get({ anchor: String(mid), num_before: 2, num_after: 2 });
    expect(idsOf(around)).toEqual(all.slice(48, 53).map((m) => m.id));
    expect(around).toMatchObject({ anchor: mid, found_anchor: true, found_oldest: false, found_newest: false, history_limited: false });
    const excluded = await get({ anchor: mid, num_before: 2, num_after: 0, include_anchor: false });
    expect(idsOf(excluded)).toEqual(all.slice(48, 50).map((m) => m.id));
    expect(excluded.found_anchor).toBe(false);
    const missing = await get({ anchor: mid + 0.5 > mid ? all[0]!.id - 1 : 0, num_before: 0, num_after: 1 });
    expect(missing.found_anchor).toBe(false);
    expect(idsOf(missing)).toEqual([all[0]!.id]);
    const negative = await get({ anchor: -5, num_before: 0, num_after: 1 });
    expect(negative.anchor).toBe(0);
    const exact = await get({ anchor: all[2]!.id, num_before: 2, num_after: 0 });
    expect(exact.found_oldest).toBe(true); // exactly the two older messages exist
    const bad = await maya("GET", "/messages", { anchor: "soon", num_before: 1, num_after: 1 });
    expect(bad.body).toMatchObject({ code: "BAD_REQUEST", msg: "Invalid anchor" });
    const both = await maya("GET", "/messages", { anchor: mid, num_before: 1, num_after: 1, include_anchor: false });
    expect(both.body["msg"]).toBe("The anchor can only be excluded at an end of the range");
  });

  it("newest and oldest", async () => {
    const newest = await get({ anchor: "newest", num_before: 3, num_after: 5 });
    expect(newest).toMatchObject({ anchor: 10_000_000_000_000_000, found_newest: true, found_oldest: false, found_anchor: false });
    expect(idsOf(newest)).toEqual(all.slice(-3).map((m) => m.id));
    const oldest = await get({ anchor: "oldest", num_before: 5, num_after: 3 });
    expect(oldest).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false });
    expect(idsOf(oldest)).toEqual(all.slice(0, 3).map((m) => m.id));
  });

  it("first_unread, and the legacy use_first_unread_anchor", async () => {
    const firstUnread = all.find((m) => !m.flags.includes("read"))!;
    const body = await get({ anchor: "first_unread", num_before: 1, num_after: 1 });
    expect(body.anchor).toBe(firstUnread.id);
    expect(body.found_anchor).toBe(true);
    const legacy = await get({ use_first_unread_anchor: true, num_before: 1, num_after: 1 });
    expect(legacy.anchor).toBe(firstUnread.id);
    // No unread message in the narrow: the newest.
    const read = await get({ anchor: "first_unread", num_before: 2, num_after: 0, narrow: [{ operator: "is", operand: "starred" }] });
    expect(read.anchor).toBe(10_000_000_000_000_000);
    // Sent together (as older clients do, with a placeholder anchor), the flag wins.
    for (const anchor of ["newest", 0]) {
      const both = await get({ anchor, use_first_unread_anchor: true, num_before: 1, num_after: 1 });
      expect(both.anchor).toBe(firstUnread.id);
      expect(idsOf(both)).toEqual(idsOf(legacy));
      expect(both["ignored_parameters_unsupported"]).toBeUndefined();
    }
  });

  it("date with anchor_date: date-only is 00:00 UTC, no zone is UTC, offsets honoured", async () => {
    const target = all[120]!;
    const day = new Date(target.timestamp * 1000).toISOString().slice(0, 10);
    const midnight = Date.parse(`${day}T00:00:00Z`) / 1000;
    const firstOfDay = all.find((m) => m.timestamp >= midnight)!;
    const byDate = await get({ anchor: "date", anchor_date: day, num_before: 0, num_after: 0 });
    expect(byDate.anchor).toBe(firstOfDay.id);
    expect(idsOf(byDate)).toEqual([firstOfDay.id]);
    const iso = new Date(target.timestamp * 1000).toISOString().slice(0, 19);
    const noZone = await get({ anchor: "date", anchor_date: iso, num_before: 0, num_after: 1 });
    expect(noZone.anchor).toBe(all.find((m) => m.timestamp >= target.timestamp)!.id);
    const shifted = new Date((target.timestamp + 3600) * 1000).toISOString().slice(0, 19) + "+01:00";
    expect((await get({ anchor: "date", anchor_date: shifted, num_before: 0, num_after: 1 })).anchor).toBe(noZone.anchor);
    const future = await get({ anchor: "date", anchor_date: "2999-01-01", num_before: 1, num_after: 0 });
    expect(future.anchor).toBe(10_000_000_000_000_000);
    const missing = await maya("GET", "/messages", { anchor: "date", num_before: 1, num_after: 0 });
    expect(missing.body["code"]).toBe("REQUEST_VARIABLE_MISSING");
    const bad = await maya("GET", "/messages", { anchor: "date", anchor_date: "yesterday", num_before: 1, num_after: 0 });
    expect(bad.status).toBe(400);
  });
});

describe("message_ids and limits", () => {
  it("returns the accessible requested ids filtered by the narrow", async () => {
    const a = all[0]!.id;
    const b = all[1]!.id;
    const body = await get({ message_ids: [b, a, 99_999_999] });
    expect(idsOf(body)).toEqual([a, b]);
    expect(body).toMatchObject({ found_anchor: false, found_oldest: false, found_newest: false, history_limited: false });
    expect(body).not.toHaveProperty("anchor");
    const narrowed = await get({ message_ids: [a, b], narrow: [{ operator: "id", operand: b }] });
    expect(idsOf(narrowed)).toEqual([b]);
  });

  it("rejects message_ids with range parameters like the public service", async () => {
    for (const extra of [{ anchor: "newest" }, { num_before: 1 }, { num_after: 0 }, { include_anchor: false }, { use_first_unread_anchor: true }]) {
      const res = await maya("GET", "/messages", { message_ids: [1001], ...extra });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        result: "error",
        code: "BAD_REQUEST",
        msg: "Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor",
        parameters: "num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor",
      });
    }
  });

  it("allows at most 5000 messages per request", async () => {
    expect((await maya("GET", "/messages", { anchor: "newest", num_before: 4000, num_after: 1000 })).status).toBe(200);
    const over = await maya("GET", "/messages", { anchor: "newest", num_before: 4000, num_after: 1001 });
    expect(over.body).toMatchObject({ code: "BAD_REQUEST", msg: "Too many messages requested (maximum 5000)." });
  });
});

describe("content and topics", () => {
  it("renders the dialect to HTML, or returns raw Markdown", async () => {
    const id = await send(client(server, account(server, "admin")), {
      type: "stream", to: "engineering", topic: "render check",
      content: "Hi @**Maya Okafor**, see #**design>icons** :tada: <b>raw</b>\n```spoiler Plot\nhidden\n```\n```quote\nquoted\n```",
    });
    const html = (await get({ message_ids: [id] })).messages[0];
    expect(html.content_type).toBe("text/html");
    expect(html.content).toContain(`<span class="user-mention" data-user-id="${server.accounts[0]!.userId}">@Maya Okafor</span>`);
    expect(html.content).toMatch(/<a class="stream-topic" data-stream-id="\d+" href="\/#narrow\/channel\/\d+-design\/topic\/icons">#design &gt; icons<\/a>/);
    expect(html.content).toContain('class="emoji emoji-1f389"');
    expect(html.content).toContain("&lt;b&gt;raw&lt;/b&gt;");
    expect(html.content).not.toContain("<b>");
    expect(html.content).toContain('<div class="spoiler-block">');
    expect(html.content).toContain("<blockquote>");
    const raw = (await get({ message_ids: [id], apply_markdown: false })).messages[0];
    expect(raw).toMatchObject({ content_type: "text/x-markdown" });
    expect(raw.content).toContain("@**Maya Okafor**");
  });

  it("shows the empty topic by its display name unless allowed", async () => {
    const narrow = [{ operator: "channel", operand: "general" }, { operator: "topic", operand: "general chat" }];
    const shown = await get({ anchor: "oldest", num_before: 0, num_after: 3, narrow });
    expect(shown.messages.length).toBeGreaterThan(0);
    for (const m of shown.messages) expect(m.subject).toBe("general chat");
    const raw = await get({ anchor: "oldest", num_before: 0, num_after: 3, narrow, allow_empty_topic_name: true });
    for (const m of raw.messages) expect(m.subject).toBe("");
  });

  it("GET /messages/{id} returns the message and the legacy raw_content", async () => {
    const edited = all.find((m) => m.edit_history)!;
    const res = await maya("GET", `/messages/${edited.id}`);
    expect(res.body["raw_content"]).toBe(edited.content);
    expect(res.body["message"]).toMatchObject({ id: edited.id, content_type: "text/html", flags: edited.flags });
    expect(res.body["message"].edit_history[0]).toHaveProperty("prev_content");
    const raw = await maya("GET", `/messages/${edited.id}`, { apply_markdown: false });
    expect(raw.body["message"].content).toBe(edited.content);
    const leadership = await maya("GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "channel", operand: "leadership" }] });
    const secret = leadership.body["messages"][0].id;
    const omar = client(server, account(server, "member", 0));
    expect((await omar("GET", `/messages/${secret}`)).body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid message(s)" });
    expect((await maya("GET", "/messages/99999999")).body["msg"]).toBe("Invalid message(s)");
  });

  it("POST /messages/render renders without sending", async () => {
    const res = await maya("POST", "/messages/render", { content: "**foo** @**Ben Carter**" });
    expect(res.body["rendered"]).toMatch(/^<p><strong>foo<\/strong> <span class="user-mention" data-user-id="\d+">@Ben Carter<\/span><\/p>$/);
    const time = await maya("POST", "/messages/render", { content: "at <time:2024-01-02T04:04:05+01:00>" });
    expect(time.body["rendered"]).toBe('<p>at <time datetime="2024-01-02T03:04:05Z">2024-01-02T04:04:05+01:00</time></p>');
    expect((await maya("POST", "/messages/render", {})).body["code"]).toBe("REQUEST_VARIABLE_MISSING");
  });
});

describe("legacy send forms", () => {
  it("accepts type=private with emails (JSON list or comma-separated) and subject for the topic", async () => {
    const ben = account(server, "admin");
    const priya = account(server, "moderator");
    const dm = await send(maya, { type: "private", to: JSON.stringify([ben.email]), content: "legacy dm" });
    const group = await send(maya, { type: "private", to: `${ben.email},${priya.email}`, content: "legacy group" });
    expect(await ids(maya, [{ operator: "dm", operand: [ben.userId] }, { operator: "search", operand: "legacy" }])).toEqual([dm]);
    expect(await ids(maya, [{ operator: "dm", operand: [ben.userId, priya.userId] }, { operator: "search", operand: "legacy" }])).toEqual([group]);
    const topic = await send(maya, { type: "stream", to: "general", subject: "legacy subject", content: "hello" });
    const m = (await get({ message_ids: [topic] })).messages[0];
    expect(m.subject).toBe("legacy subject");
  });
});
