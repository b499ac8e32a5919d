// Reference server: PATCH /streams/{stream_id} — validations, permissions and
// the stream events other users' queues receive.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Harness, expectError, type Client, type Json } from "../fixtures/server-client.js";

let h: Harness;
let maya: Client; // owner
let ben: Client; // administrator
let omar: Client; // member
let lena: Client; // member, administers #design
let sam: Client; // guest
const ids = new Map<string, number>();
const groups = new Map<string, number>();
const cid = (name: string) => ids.get(name)!;

beforeAll(async () => {
  h = await Harness.start();
  maya = h.as(h.account("owner"));
  ben = h.as(h.account("admin"));
  omar = h.as(h.account("member", 0));
  lena = h.as(h.account("member", 1));
  sam = h.as(h.account("guest"));
  const reg = (await maya.call("POST", "/register", { fetch_event_types: ["subscription"], client_capabilities: { archived_channels: true } })).body;
  for (const s of [...reg["subscriptions"], ...reg["unsubscribed"], ...reg["never_subscribed"]] as Json[]) ids.set(s["name"], s["stream_id"]);
  for (const g of (await maya.call("GET", "/user_groups")).body["user_groups"] as Json[]) groups.set(g["name"], g["id"]);
});
afterAll(async () => {
  expect(h.conformanceProblems()).toEqual([]);
  await h.close();
});

const patch = (who: Client, name: string | number, params: Record<string, unknown>) =>
  who.call("PATCH", `/streams/${typeof name === "number" ? name : cid(name)}`, params);

describe("update a channel", () => {
  it("changes the description and tells subscribers with the rendered form", async () => {
    const q = await omar.queue(["stream"]);
    const other = await omar.queue(["message"]);
    const res = await patch(maya, "general", { description: "Company **news**\nand chatter" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const events = await q.drain();
    expect(events).toEqual([
      expect.objectContaining({
        type: "stream", op: "update", stream_id: cid("general"), name: "general", property: "description",
        value: "Company **news** and chatter", rendered_description: expect.stringContaining("<strong>news</strong>"),
      }),
    ]);
    expect(await other.drain()).toEqual([]);
  });

  it("validates and applies a new name; the event carries the old name", async () => {
    expectError(await patch(ben, "random", { new_name: "x".repeat(61) }), "BAD_REQUEST", "Channel name too long (limit: 60 characters).");
    expectError(await patch(ben, "random", { new_name: "  " }), "BAD_REQUEST", "Channel name can't be empty.");
    expectError(await patch(ben, "random", { new_name: "General" }), "BAD_REQUEST", "Channel 'general' already exists");
    const q = await lena.queue(["stream"]);
    expect((await patch(ben, "random", { new_name: "off-topic" })).status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ property: "name", value: "off-topic", name: "random" })]);
    expect((await patch(ben, "random", { new_name: "random" })).status).toBe(200);
  });

  it("rejects too long descriptions, unknown channels and private channels one cannot see", async () => {
    expectError(await patch(maya, "general", { description: "d".repeat(1025) }), "BAD_REQUEST", "description is too long (limit: 1024 characters)");
    expectError(await patch(maya, 9999, { description: "x" }), "BAD_REQUEST", "Invalid channel ID");
    expectError(await patch(omar, "leadership", { description: "x" }), "BAD_REQUEST", "Invalid channel ID");
  });

  it("lets only administrators and can_administer_channel_group members edit", async () => {
    expectError(await patch(omar, "general", { description: "mine now" }), "BAD_REQUEST", "You do not have permission to administer this channel.");
    expectError(await patch(sam, "general", { description: "guest" }), "BAD_REQUEST", "You do not have permission to administer this channel.");
    expect((await patch(lena, "design", { description: "Design, UX and research." })).status).toBe(200);
    expectError(await patch(lena, "design", { is_web_public: true }), "BAD_REQUEST", "Insufficient permission");
  });

  it("makes a channel private: subscribers get invite_only, others a delete; and back", async () => {
    const created = await ben.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "ops-room" }], principals: [ben.id, omar.id] });
    expect(created.status).toBe(200);
    const reg = (await ben.call("POST", "/register", { fetch_event_types: ["subscription"] })).body;
    const opsId = (reg["subscriptions"] as Json[]).find((s) => s["name"] === "ops-room")!["stream_id"] as number;
    const sub = await omar.queue(["stream"]);
    const outsider = await lena.queue(["stream"]);
    expectError(await patch(ben, opsId, { is_private: false, history_public_to_subscribers: false }), "BAD_REQUEST", "Invalid parameters");
    expect((await patch(ben, opsId, { is_private: true })).status).toBe(200);
    expect(await sub.drain()).toEqual([
      expect.objectContaining({ property: "invite_only", value: true, history_public_to_subscribers: true, is_web_public: false }),
    ]);
    expect(await outsider.drain()).toEqual([expect.objectContaining({ type: "stream", op: "delete", stream_ids: [opsId] })]);
    // An administrator who is not subscribed may not change a private channel's privacy.
    expectError(await patch(maya, opsId, { is_private: false }), "BAD_REQUEST", "Invalid channel ID");
    expect((await patch(ben, opsId, { history_public_to_subscribers: false })).status).toBe(200);
    expect(await sub.drain()).toEqual([expect.objectContaining({ property: "history_public_to_subscribers", value: false })]);
    expect((await patch(ben, opsId, { is_private: false })).status).toBe(200);
    const back = await outsider.drain();
    expect(back).toEqual([expect.objectContaining({ op: "create" })]);
    expect(back[0]!["streams"][0]).toMatchObject({ stream_id: opsId, invite_only: false, history_public_to_subscribers: true });
  });

  it("adds and removes default channels (never private ones)", async () => {
    expectError(await patch(maya, "leadership", { is_default_stream: true }), "BAD_REQUEST", "Private channels cannot be made default.");
    const q = await omar.queue(["default_streams"]);
    expect((await patch(maya, "engineering", { is_default_stream: true })).status).toBe(200);
    const [event] = await q.drain();
    expect(event).toMatchObject({ type: "default_streams" });
    expect(event!["default_streams"]).toContain(cid("engineering"));
    expect((await patch(maya, "engineering", { is_default_stream: true })).status).toBe(200);
    expect(await q.drain()).toEqual([]);
  });

  it("sets message retention (owners only)", async () => {
    expectError(await patch(ben, "general", { message_retention_days: "unlimited" }), "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
    expectError(await patch(maya, "general", { message_retention_days: "forever" }), "BAD_REQUEST");
    const q = await omar.queue(["stream"]);
    expect((await patch(maya, "general", { message_retention_days: "unlimited" })).status).toBe(200);
    expect((await patch(maya, "general", { message_retention_days: 30 })).status).toBe(200);
    expect((await patch(maya, "general", { message_retention_days: "realm_default" })).status).toBe(200);
    expect((await q.drain()).map((e) => e["value"])).toEqual([-1, 30, null]);
  });

  it("accepts only unarchiving for an archived channel", async () => {
    expectError(await patch(maya, "mobile-app", { description: "back" }), "BAD_REQUEST");
    expectError(await patch(maya, "general", { is_archived: true }), "BAD_REQUEST");
    const modern = await omar.queue(["stream"], { client_capabilities: { archived_channels: true } });
    const legacy = await omar.queue(["stream"]);
    expect((await patch(maya, "mobile-app", { is_archived: false })).status).toBe(200);
    expect(await modern.drain()).toEqual([expect.objectContaining({ op: "update", property: "is_archived", value: false })]);
    const events = await legacy.drain();
    expect(events.map((e) => e["op"])).toEqual(["update", "create"]);
    expect((await patch(maya, "mobile-app", { description: "Revived." })).status).toBe(200);
  });

  it("moves a channel between folders", async () => {
    expectError(await patch(maya, "general", { folder_id: 999 }), "BAD_REQUEST", "Invalid channel folder ID");
    const q = await omar.queue(["stream"]);
    expect((await patch(maya, "engineering", { folder_id: null })).status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ property: "folder_id", value: null })]);
  });

  it("validates topics_policy; empty_topic_only needs every message in the empty topic", async () => {
    expectError(await patch(maya, "general", { topics_policy: "whatever" }), "BAD_REQUEST", "Invalid topics_policy");
    expectError(await patch(maya, "engineering", { topics_policy: "empty_topic_only" }), "BAD_REQUEST");
    const q = await omar.queue(["stream"]);
    expect((await patch(maya, "engineering", { topics_policy: "disable_empty_topic" })).status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ property: "topics_policy", value: "disable_empty_topic" })]);
    const made = await ben.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "quiet" }] });
    expect(made.status).toBe(200);
    const quiet = ((await ben.call("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[]).find((s) => s["name"] === "quiet")!;
    expect((await patch(ben, quiet["stream_id"], { topics_policy: "empty_topic_only" })).status).toBe(200);
  });

  it("updates group settings with {new, old}, rejecting a stale old", async () => {
    const admins = groups.get("role:administrators")!;
    const everyone = groups.get("role:everyone")!;
    expectError(
      await patch(maya, "general", { can_send_message_group: { new: admins, old: admins } }),
      "BAD_REQUEST",
      "'old' value does not match the expected value.",
    );
    expectError(await patch(maya, "general", { can_send_message_group: { new: 99999 } }), "BAD_REQUEST", "Invalid user group");
    const q = await omar.queue(["stream"]);
    expect((await patch(maya, "general", { can_send_message_group: { new: admins, old: everyone } })).status).toBe(200);
    expect((await patch(maya, "general", { can_remove_subscribers_group: { new: { direct_members: [omar.id], direct_subgroups: [admins] } } })).status).toBe(200);
    expect(await q.drain()).toEqual([
      expect.objectContaining({ property: "can_send_message_group", value: admins }),
      expect.objectContaining({ property: "can_remove_subscribers_group", value: { direct_members: [omar.id], direct_subgroups: [admins] } }),
    ]);
    // A member made channel administrator may now edit it.
    expect((await patch(maya, "general", { can_administer_channel_group: { new: { direct_members: [omar.id], direct_subgroups: [] } } })).status).toBe(200);
    expect((await patch(omar, "general", { description: "Omar was here" })).status).toBe(200);
  });
});
