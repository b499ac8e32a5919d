/**
 * Spectators on the reference server, over HTTP without credentials: register
 * gives the organization and its web-public channels, no queue and no personal
 * data; messages of web-public channels can be read (with a narrow that says
 * `channels: web-public`); everything else, and everything once the
 * organization turns spectator access off, is "Not logged in" (401
 * UNAUTHORIZED); the two register parameters the spec forbids for anonymous
 * requests are refused.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import * as z from "zod";
import { registerResponseSchema } from "../../src/api/schemas/register.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
beforeEach(async () => {
  ctx = await withServer();
});
afterEach(async () => ctx.close());

type Json = Record<string, unknown>;
const NOT_LOGGED_IN = { result: "error", code: "UNAUTHORIZED", msg: "Not logged in: API authentication or user session required" };

async function anonymous(method: string, path: string, params: Record<string, string> = {}) {
  const query = method === "GET" ? `?${new URLSearchParams(params)}` : "";
  const res = await fetch(`${ctx.server.url}/api/v1/${path}${query}`, { method, ...(method !== "GET" && { body: new URLSearchParams(params) }) });
  return { status: res.status, body: (await res.json()) as Json };
}

const webPublicNarrow = (...more: Json[]) => JSON.stringify([{ operator: "channels", operand: "web-public" }, ...more]);

it("gives a spectator the web-public channels as its subscriptions, their folders, and no event queue or personal data", async () => {
  const { status, body } = await anonymous("POST", "register");
  expect(status).toBe(200);
  const reg = registerResponseSchema.parse(body);
  expect(reg.queue_id).toBeNull();
  expect(reg.user_id).toBeUndefined();
  expect(reg.realm_name).toBe("Lighthouse Labs");
  expect(body["realm_enable_spectator_access"]).toBe(true);
  const names = reg.subscriptions.map((c) => c.name);
  expect(names).toEqual(["announcements"]);
  expect(reg.subscriptions.every((c) => c.is_web_public && typeof c.color === "string")).toBe(true);
  expect(reg.never_subscribed.all()).toEqual([]);
  expect(reg.realm_users.all()).toEqual([]);
  expect(reg.unread_msgs).toBeUndefined();
  // Only folders holding a web-public channel.
  const folderIds = new Set(reg.subscriptions.map((c) => c.folder_id));
  expect(reg.channel_folders.length).toBeGreaterThan(0);
  expect(reg.channel_folders.every((f) => folderIds.has(f.id))).toBe(true);
});

it("lets a spectator read a web-public channel's messages and its topics, and nothing beyond", async () => {
  const announcements = (await anonymous("POST", "register")).body["subscriptions"] as Json[];
  const channelId = announcements[0]!["stream_id"] as number;
  const read = await anonymous("GET", "messages", {
    anchor: "newest", num_before: "50", num_after: "0",
    narrow: webPublicNarrow({ operator: "channel", operand: channelId }),
  });
  expect(read.status).toBe(200);
  const messages = read.body["messages"] as Json[];
  expect(messages.length).toBeGreaterThan(0);
  expect(messages.every((m) => m["stream_id"] === channelId)).toBe(true);
  expect(messages.map((m) => m["subject"])).toContain("holiday schedule");

  // The whole web-public feed holds only web-public channels' messages, never a DM.
  // (From the first unread, as a client opening a view asks: a spectator has none, so the newest.)
  const feed = await anonymous("GET", "messages", { anchor: "first_unread", num_before: "200", num_after: "0", narrow: webPublicNarrow() });
  expect(feed.status).toBe(200);
  const feedMessages = feed.body["messages"] as Json[];
  expect(feedMessages.map((m) => m["id"])).toEqual(messages.map((m) => m["id"]));
  expect(feedMessages.every((m) => m["type"] === "stream" && m["stream_id"] === channelId)).toBe(true);

  const one = await anonymous("GET", `messages/${messages[0]!["id"] as number}`);
  expect(one.status).toBe(200);
  const topics = await anonymous("GET", `users/me/${channelId}/topics`);
  expect((topics.body["topics"] as Json[]).map((t) => t["name"])).toContain("holiday schedule");

  // A channel that is not web-public, a narrow without `channels: web-public`, a personal operator.
  const general = await anonymous("GET", "messages", { anchor: "newest", num_before: "5", num_after: "0", narrow: webPublicNarrow({ operator: "channel", operand: "general" }) });
  expect(general).toMatchObject({ status: 400, body: { code: "BAD_NARROW" } });
  for (const narrow of [JSON.stringify([{ operator: "channel", operand: channelId }]), webPublicNarrow({ operator: "is", operand: "dm" }), "[]"]) {
    const refused = await anonymous("GET", "messages", { anchor: "newest", num_before: "5", num_after: "0", narrow });
    expect(refused).toEqual({ status: 401, body: NOT_LOGGED_IN });
  }
  const generalTopics = await anonymous("GET", "users/me/1/topics");
  expect(generalTopics.status).toBe(400);
  // A DM (the owner's first one) is not found for a spectator.
  const dms = await ctx.client().request("GET", "messages", {
    params: { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "is", operand: "dm" }] },
    schema: z.looseObject({ messages: z.array(z.looseObject({ id: z.number() })) }),
  });
  const dmId = dms.messages[0]!.id;
  expect((await anonymous("GET", `messages/${dmId}`)).status).toBe(400);
});

it("refuses every write and every personal read without credentials, changing nothing", async () => {
  const channelId = ((await anonymous("POST", "register")).body["subscriptions"] as Json[])[0]!["stream_id"] as number;
  const newest = async () => {
    const answer = await ctx.client().request("GET", "messages", { params: { anchor: "newest", num_before: 1, num_after: 0 }, schema: z.looseObject({ messages: z.array(z.looseObject({ id: z.number() })) }) });
    return answer.messages[0]?.id;
  };
  const before = await newest();
  const attempts: Array<[string, string, Record<string, string>]> = [
    ["POST", "messages", { type: "stream", to: String(channelId), topic: "hello", content: "from nowhere" }],
    ["POST", "messages/flags", { messages: "[1]", op: "add", flag: "read" }],
    ["POST", "messages/1001/reactions", { emoji_name: "tada" }],
    ["GET", "events", { queue_id: "x", last_event_id: "-1" }],
    ["GET", "users/me", {}],
    ["GET", "drafts", {}],
    ["POST", "users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "announcements" }]) }],
  ];
  for (const [method, path, params] of attempts) {
    const answer = await anonymous(method, path, params);
    expect({ method, path, ...answer }).toEqual({ method, path, status: 401, body: NOT_LOGGED_IN });
  }
  expect(await newest()).toBe(before);
});

it("refuses client_gravatar or include_subscribers set to true without credentials", async () => {
  const cases: Array<Record<string, string>> = [{ client_gravatar: "true" }, { include_subscribers: "true" }];
  for (const params of cases) {
    const { status, body } = await anonymous("POST", "register", params);
    expect(status).toBe(400);
    expect(body).toMatchObject({ result: "error", code: "BAD_REQUEST", msg: expect.stringMatching(/for anonymous request$/) });
  }
});

it("closes everything to spectators once the organization turns spectator access off", async () => {
  expect((await anonymous("GET", "server_settings")).body["realm_web_public_access_enabled"]).toBe(true);
  await ctx.client().request("PATCH", "realm", { params: { enable_spectator_access: false }, schema: z.object({}) });
  expect(await anonymous("POST", "register")).toEqual({ status: 401, body: NOT_LOGGED_IN });
  const read = await anonymous("GET", "messages", { anchor: "newest", num_before: "5", num_after: "0", narrow: webPublicNarrow() });
  expect(read).toEqual({ status: 401, body: NOT_LOGGED_IN });
  expect((await anonymous("GET", "server_settings")).body["realm_web_public_access_enabled"]).toBe(false);
  // Members see the setting in their register.
  const reg = await ctx.client().request("POST", "register", { params: { fetch_event_types: ["realm"] }, schema: z.looseObject({}) });
  expect(reg["realm_enable_spectator_access"]).toBe(false);
});

it("still authenticates when credentials are sent, and refuses wrong ones", async () => {
  const auth = "Basic " + Buffer.from(`${ctx.owner.email}:${"x".repeat(32)}`).toString("base64");
  const res = await fetch(`${ctx.server.url}/api/v1/register`, { method: "POST", headers: { authorization: auth } });
  expect(res.status).toBe(401);
});
