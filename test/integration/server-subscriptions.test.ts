// Reference server: subscriptions (list, personal settings, subscribe,
// unsubscribe) and topic visibility policies, with their events.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Harness, expectError, type Client, type Json } from "../fixtures/server-client.js";

let h: Harness;
let maya: Client; // owner
let ben: Client; // administrator
let omar: Client; // member
let lena: Client; // member
let sam: Client; // guest
const ids = new Map<string, number>();
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
});
afterAll(async () => {
  expect(h.conformanceProblems()).toEqual([]);
  await h.close();
});

describe("get subscriptions", () => {
  it("lists the user's channels, with subscribers on request", async () => {
    const plain = await omar.call("GET", "/users/me/subscriptions");
    expect(plain.status).toBe(200);
    const names = (plain.body["subscriptions"] as Json[]).map((s) => s["name"]);
    expect(names).toContain("general");
    expect(names).not.toContain("leadership");
    expect(plain.body["subscriptions"][0]).not.toHaveProperty("subscribers");
    const full = await omar.call("GET", "/users/me/subscriptions", { include_subscribers: true });
    const general = (full.body["subscriptions"] as Json[]).find((s) => s["name"] === "general")!;
    expect(general["subscribers"]).toContain(maya.id);
  });
});

describe("subscription settings", () => {
  const update = (who: Client, data: unknown) => who.call("POST", "/users/me/subscriptions/properties", { subscription_data: data });

  it("changes colour and pin_to_top with one event each", async () => {
    const q = await omar.queue(["subscription"]);
    const res = await update(omar, [
      { stream_id: cid("general"), property: "color", value: "#AABBCC" },
      { stream_id: cid("general"), property: "pin_to_top", value: true },
    ]);
    expect(res.status).toBe(200);
    expect(await q.drain()).toEqual([
      expect.objectContaining({ type: "subscription", op: "update", stream_id: cid("general"), property: "color", value: "#aabbcc" }),
      expect.objectContaining({ property: "pin_to_top", value: true }),
    ]);
  });

  it("sends two events per is_muted or in_home_view change", async () => {
    const q = await omar.queue(["subscription"]);
    expect((await update(omar, [{ stream_id: cid("random"), property: "is_muted", value: true }])).status).toBe(200);
    expect((await update(omar, [{ stream_id: cid("random"), property: "in_home_view", value: true }])).status).toBe(200);
    const events = await q.drain();
    expect(events.map((e) => [e["property"], e["value"]])).toEqual([
      ["in_home_view", false], ["is_muted", true], ["in_home_view", true], ["is_muted", false],
    ]);
  });

  it("validates property, value and channel", async () => {
    expectError(await update(omar, [{ stream_id: cid("general"), property: "volume", value: true }]), "BAD_REQUEST", "Unknown subscription property: volume");
    expectError(await update(omar, [{ stream_id: cid("general"), property: "color", value: "red" }]), "BAD_REQUEST");
    expectError(await update(omar, [{ stream_id: cid("general"), property: "is_muted", value: "yes" }]), "BAD_REQUEST");
    expectError(await update(omar, [{ stream_id: cid("leadership"), property: "is_muted", value: true }]), "BAD_REQUEST", "Invalid channel ID");
    expectError(await update(omar, [{ stream_id: cid("design"), property: "is_muted", value: true }]), "BAD_REQUEST", `Not subscribed to channel ID ${cid("design")}`);
    expectError(await update(omar, [{ stream_id: cid("general"), property: "is_muted" }]), "BAD_REQUEST");
    expectError(await omar.call("POST", "/users/me/subscriptions/properties", {}), "REQUEST_VARIABLE_MISSING");
  });

  it("updates one property through the single-channel endpoint", async () => {
    const q = await omar.queue(["subscription"]);
    expect((await omar.call("POST", `/users/me/subscriptions/${cid("general")}`, { property: "desktop_notifications", value: "true" })).status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ property: "desktop_notifications", value: true })]);
  });
});

describe("subscribe and unsubscribe", () => {
  it("creates a channel, subscribes the requester, and tells everyone", async () => {
    const others = await lena.queue(["stream", "subscription"]);
    const mine = await omar.queue(["subscription"]);
    const res = await omar.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "book-club", description: "Reading", color: "#112233" }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subscribed: { [String(omar.id)]: ["book-club"] }, already_subscribed: {} });
    const [add] = await mine.drain();
    expect(add).toMatchObject({ type: "subscription", op: "add" });
    expect(add!["subscriptions"][0]).toMatchObject({ name: "book-club", color: "#112233", description: "Reading", subscribers: [omar.id], creator_id: omar.id });
    const seen = await others.drain();
    // The create event carries no subscribers; peer_add tells who joined.
    expect(seen).toEqual([
      expect.objectContaining({ type: "stream", op: "create" }),
      expect.objectContaining({ type: "subscription", op: "peer_add", user_ids: [omar.id] }),
    ]);
    expect(seen[0]!["streams"][0]).toMatchObject({ name: "book-club", invite_only: false });
    const again = await omar.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "book-club" }] });
    expect(again.body).toMatchObject({ subscribed: {}, already_subscribed: { [String(omar.id)]: ["book-club"] } });
  });

  it("subscribes others to an existing channel with peer_add for the rest", async () => {
    const peers = await maya.queue(["subscription"]);
    const newcomer = await lena.queue(["subscription"]);
    const res = await omar.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "book-club" }], principals: [lena.who.email] });
    expect(res.body["subscribed"]).toEqual({ [String(lena.id)]: ["book-club"] });
    const [peer] = await peers.drain();
    expect(peer).toMatchObject({ type: "subscription", op: "peer_add", user_ids: [lena.id] });
    const [add] = await newcomer.drain();
    expect(add).toMatchObject({ op: "add" });
    expect(add!["subscriptions"][0]["subscribers"]).toEqual([omar.id, lena.id].sort((a, b) => a - b));
  });

  it("refuses guests creating channels and members joining private channels", async () => {
    expectError(await sam.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "guest-room" }] }), "BAD_REQUEST", "Insufficient permission");
    expectError(await omar.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "leadership" }] }), "BAD_REQUEST", "Unable to access channel (leadership).");
    const soft = await omar.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "leadership" }], authorization_errors_fatal: false });
    expect(soft.body).toMatchObject({ subscribed: {}, already_subscribed: {}, unauthorized: ["leadership"] });
    expectError(await omar.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "x" }], principals: [99999] }), "BAD_REQUEST", "No such user");
    expectError(await omar.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "bad\u0001name" }] }), "BAD_REQUEST");
  });

  it("unsubscribes, reporting removed and not_removed, with peer_remove to others", async () => {
    const peers = await maya.queue(["subscription"]);
    const me = await lena.queue(["subscription"]);
    const res = await lena.call("DELETE", "/users/me/subscriptions", { subscriptions: ["book-club", "engineering"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ removed: ["book-club"], not_removed: ["engineering"] });
    expect(await me.drain()).toEqual([expect.objectContaining({ op: "remove", subscriptions: [{ stream_id: expect.any(Number), name: "book-club" }] })]);
    expect(await peers.drain()).toEqual([expect.objectContaining({ op: "peer_remove", user_ids: [lena.id] })]);
    expectError(await lena.call("DELETE", "/users/me/subscriptions", { subscriptions: ["nonexistent"] }), "STREAM_DOES_NOT_EXIST", "Channel 'nonexistent' does not exist");
  });

  it("lets only administrators (or can_remove_subscribers_group) unsubscribe others", async () => {
    expectError(await lena.call("DELETE", "/users/me/subscriptions", { subscriptions: ["general"], principals: [omar.id] }), "BAD_REQUEST", "Insufficient permission");
    const res = await ben.call("DELETE", "/users/me/subscriptions", { subscriptions: ["book-club"], principals: [omar.id] });
    expect(res.body).toMatchObject({ removed: ["book-club"], not_removed: [] });
  });

  it("sends a private channel's departing member a stream delete", async () => {
    const made = await ben.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "secret" }], principals: [ben.id, omar.id], invite_only: true });
    expect(made.status).toBe(200);
    const q = await omar.queue(["stream", "subscription"]);
    expect((await omar.call("DELETE", "/users/me/subscriptions", { subscriptions: ["secret"] })).status).toBe(200);
    expect((await q.drain()).map((e) => `${e["type"]}/${e["op"]}`)).toEqual(["subscription/remove", "stream/delete"]);
  });
});

describe("topic visibility", () => {
  const set = (who: Client, params: Record<string, unknown>) => who.call("POST", "/user_topics", params);

  it("follows, mutes and clears a topic with user_topic events", async () => {
    const q = await omar.queue(["user_topic"]);
    expect((await set(omar, { stream_id: cid("general"), topic: "lunch", visibility_policy: 3 })).status).toBe(200);
    expect((await set(omar, { stream_id: cid("general"), topic: "Lunch", visibility_policy: 1 })).status).toBe(200);
    expect((await set(omar, { stream_id: cid("general"), topic: "lunch", visibility_policy: 0 })).status).toBe(200);
    expect((await set(omar, { stream_id: cid("general"), topic: "never-used", visibility_policy: 0 })).status).toBe(200);
    const events = await q.drain();
    expect(events.map((e) => [e["topic_name"], e["visibility_policy"]])).toEqual([["lunch", 3], ["lunch", 1], ["lunch", 0], ["never-used", 0]]);
    expect(events[0]).toMatchObject({ type: "user_topic", stream_id: cid("general"), last_updated: expect.any(Number) });
  });

  it("maps the empty topic's display name and validates the request", async () => {
    const q = await omar.queue(["user_topic"], { client_capabilities: { empty_topic_name: true } });
    expect((await set(omar, { stream_id: cid("general"), topic: "general chat", visibility_policy: 2 })).status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ topic_name: "", visibility_policy: 2 })]);
    expectError(await set(omar, { stream_id: cid("general"), topic: "t", visibility_policy: 4 }), "BAD_REQUEST", "Invalid visibility_policy");
    expectError(await set(omar, { stream_id: cid("general"), topic: "t".repeat(61), visibility_policy: 1 }), "BAD_REQUEST", "topic is too long (limit: 60 characters)");
    expectError(await set(omar, { stream_id: cid("leadership"), topic: "t", visibility_policy: 1 }), "BAD_REQUEST", "Invalid channel ID");
    expectError(await set(omar, { stream_id: cid("general"), visibility_policy: 1 }), "REQUEST_VARIABLE_MISSING");
  });
});
