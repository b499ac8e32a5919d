/**
 * Each route sends the right method, path and encoded parameters, and is
 * retried after a 503 only when sending it twice is harmless.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as api from "../../src/api/index.js";
import { ignoredParameters, describeIgnoredParameters, ServerError, type ApiClient } from "../../src/api/index.js";
import { fakeConnection } from "../fixtures/fake-connection.js";

interface Case {
  name: string;
  call: (c: ApiClient) => Promise<unknown>;
  method: string;
  path: string;
  /** Expected parameters as they travel (strings; JSON for arrays/objects). */
  params?: Record<string, string>;
  /** Parameters that must not be sent at all. */
  absent?: string[];
  /** Reply body for a success (beyond the envelope). */
  reply?: Record<string, unknown>;
  idempotent: boolean;
}

const ok = { result: "success", msg: "" };
const msg = { id: 7, sender_id: 1, sender_full_name: "A", sender_email: "a@x", type: "stream", display_recipient: "general", subject: "t", timestamp: 1, content: "c" };

const cases: Case[] = [
  {
    name: "updateChannel with {new, old}, retention string, folder null, topics_policy",
    call: (c) =>
      api.updateChannel(c, 5, {
        new_name: "ops",
        message_retention_days: "unlimited",
        folder_id: null,
        topics_policy: "disable_empty_topic",
        can_add_subscribers_group: { new: { direct_members: [1], direct_subgroups: [] }, old: 7 },
        can_delete_own_message_group: { new: 3 },
      }),
    method: "PATCH",
    path: "/api/v1/streams/5",
    params: {
      new_name: "ops",
      message_retention_days: "unlimited",
      folder_id: "null",
      topics_policy: "disable_empty_topic",
      can_add_subscribers_group: '{"new":{"direct_members":[1],"direct_subgroups":[]},"old":7}',
      can_delete_own_message_group: '{"new":3}',
    },
    idempotent: true,
  },
  {
    name: "updateChannel with an integer retention",
    call: (c) => api.updateChannel(c, 5, { message_retention_days: 30, is_archived: false }),
    method: "PATCH",
    path: "/api/v1/streams/5",
    params: { message_retention_days: "30", is_archived: "false" },
    idempotent: true,
  },
  {
    name: "updateSubscriptionSettings",
    call: (c) =>
      api.updateSubscriptionSettings(c, [
        { stream_id: 1, property: "color", value: "#ff0000" },
        { stream_id: 2, property: "is_muted", value: true },
      ]),
    method: "POST",
    path: "/api/v1/users/me/subscriptions/properties",
    params: { subscription_data: '[{"stream_id":1,"property":"color","value":"#ff0000"},{"stream_id":2,"property":"is_muted","value":true}]' },
    idempotent: true,
  },
  {
    name: "updateUserTopic (followed)",
    call: (c) => api.updateUserTopic(c, { stream_id: 3, topic: "lunch", visibility_policy: api.VisibilityPolicy.Followed }),
    method: "POST",
    path: "/api/v1/user_topics",
    params: { stream_id: "3", topic: "lunch", visibility_policy: "3" },
    idempotent: true,
  },
  {
    name: "updatePresence (modern)",
    call: (c) => api.updatePresence(c, { status: "active", last_update_id: -1, ping_only: false, history_limit_days: 3, new_user_input: true, slim_presence: true }),
    method: "POST",
    path: "/api/v1/users/me/presence",
    params: { status: "active", last_update_id: "-1", ping_only: "false", history_limit_days: "3", new_user_input: "true", slim_presence: "true" },
    reply: { presence_last_update_id: 4, server_timestamp: 1.5, presences: { "10": { active_timestamp: 1, idle_timestamp: 2 } } },
    idempotent: true,
  },
  {
    name: "createChannelFolder always sends a description",
    call: (c) => api.createChannelFolder(c, { name: "Teams" }),
    method: "POST",
    path: "/api/v1/channel_folders/create",
    params: { name: "Teams", description: "" },
    reply: { channel_folder_id: 4 },
    idempotent: false,
  },
  {
    name: "updateChannelFolder",
    call: (c) => api.updateChannelFolder(c, 4, { is_archived: true }),
    method: "PATCH",
    path: "/api/v1/channel_folders/4",
    params: { is_archived: "true" },
    idempotent: true,
  },
  {
    name: "checkMessagesMatchNarrow",
    call: (c) => api.checkMessagesMatchNarrow(c, { msg_ids: [1, 2], narrow: [{ operator: "search", operand: "x" }] }),
    method: "GET",
    path: "/api/v1/messages/matches_narrow",
    params: { msg_ids: "[1,2]", narrow: '[{"operator":"search","operand":"x"}]' },
    reply: { messages: { "1": { match_content: "<p>x</p>", match_subject: "t" } } },
    idempotent: true,
  },
  {
    name: "getUser",
    call: (c) => api.getUser(c, 10, { include_custom_profile_fields: true }),
    method: "GET",
    path: "/api/v1/users/10",
    params: { include_custom_profile_fields: "true" },
    reply: { user: { user_id: 10, email: "a@x", full_name: "A" } },
    idempotent: true,
  },
  {
    name: "getUserByEmail",
    call: (c) => api.getUserByEmail(c, "a+b@example.test"),
    method: "GET",
    path: "/api/v1/users/a%2Bb%40example.test",
    reply: { user: { user_id: 10, email: "a@x", full_name: "A" } },
    idempotent: true,
  },
  {
    name: "getMessages with a date anchor and a narrow",
    call: (c) =>
      api.getMessages(c, { anchor: "date", anchor_date: "2025-01-02", include_anchor: false, num_before: 0, num_after: 50, narrow: [{ operator: "channel", operand: 5 }], allow_empty_topic_name: true, apply_markdown: false }),
    method: "GET",
    path: "/api/v1/messages",
    params: { anchor: "date", anchor_date: "2025-01-02", include_anchor: "false", num_before: "0", num_after: "50", narrow: '[{"operator":"channel","operand":5}]', allow_empty_topic_name: "true", apply_markdown: "false" },
    reply: { messages: [msg] },
    idempotent: true,
  },
  {
    name: "getMessages by IDs with legacy narrow pairs",
    call: (c) => api.getMessages(c, { message_ids: [7, 8], narrow: [["stream", "general"]] }),
    method: "GET",
    path: "/api/v1/messages",
    params: { message_ids: "[7,8]", narrow: '[["stream","general"]]' },
    reply: { messages: [msg] },
    idempotent: true,
  },
  {
    name: "getMessages with use_first_unread_anchor",
    call: (c) => api.getMessages(c, { use_first_unread_anchor: true, num_before: 10, num_after: 10 }),
    method: "GET",
    path: "/api/v1/messages",
    params: { use_first_unread_anchor: "true", num_before: "10", num_after: "10" },
    reply: { messages: [] },
    idempotent: true,
  },
  {
    name: "updateStatus",
    call: (c) => api.updateStatus(c, { status_text: "lunch", emoji_name: "car", away: false }),
    method: "POST",
    path: "/api/v1/users/me/status",
    params: { status_text: "lunch", emoji_name: "car", away: "false" },
    idempotent: true,
  },
  {
    name: "createUserGroup",
    call: (c) => api.createUserGroup(c, { name: "ops", description: "", members: [1, 2], can_mention_group: { direct_members: [1], direct_subgroups: [] } }),
    method: "POST",
    path: "/api/v1/user_groups/create",
    params: { name: "ops", description: "", members: "[1,2]", can_mention_group: '{"direct_members":[1],"direct_subgroups":[]}' },
    reply: { group_id: 9 },
    idempotent: false,
  },
  {
    name: "createDrafts",
    call: (c) => api.createDrafts(c, [{ type: "stream", to: [3], topic: "t", content: "hi" }, { type: "private", to: [4], content: "yo" }]),
    method: "POST",
    path: "/api/v1/drafts",
    params: { drafts: '[{"type":"stream","to":[3],"topic":"t","content":"hi"},{"type":"private","to":[4],"content":"yo","topic":""}]' },
    reply: { ids: [1, 2] },
    idempotent: false,
  },
  {
    name: "editDraft",
    call: (c) => api.editDraft(c, 1, { type: "", to: [], content: "x" }),
    method: "PATCH",
    path: "/api/v1/drafts/1",
    params: { draft: '{"type":"","to":[],"content":"x","topic":""}' },
    idempotent: true,
  },
  { name: "deleteDraft", call: (c) => api.deleteDraft(c, 1), method: "DELETE", path: "/api/v1/drafts/1", idempotent: true },
  { name: "getDrafts", call: (c) => api.getDrafts(c), method: "GET", path: "/api/v1/drafts", reply: { drafts: [] }, idempotent: true },
  {
    name: "markTopicAsRead",
    call: (c) => api.markTopicAsRead(c, 3, "lunch"),
    method: "POST",
    path: "/api/v1/mark_topic_as_read",
    params: { stream_id: "3", topic_name: "lunch" },
    idempotent: true,
  },
  {
    name: "deactivateUser",
    call: (c) => api.deactivateUser(c, 8, { actions: { delete_profile: true }, deactivation_notification_comment: "bye" }),
    method: "DELETE",
    path: "/api/v1/users/8",
    params: { actions: '{"delete_profile":true}', deactivation_notification_comment: "bye" },
    idempotent: false,
  },
  {
    name: "deactivateUser without an email leaves the comment out (null is not sent as text)",
    call: (c) => api.deactivateUser(c, 8, { deactivation_notification_comment: null }),
    method: "DELETE",
    path: "/api/v1/users/8",
    params: {},
    absent: ["deactivation_notification_comment"],
    idempotent: false,
  },
  {
    name: "addApnsDeviceToken",
    call: (c) => api.addApnsDeviceToken(c, { token: "abc", appid: "org.example" }),
    method: "POST",
    path: "/api/v1/users/me/apns_device_token",
    params: { token: "abc", appid: "org.example" },
    idempotent: true,
  },
  {
    name: "addReaction",
    call: (c) => api.addReaction(c, 7, { emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" }),
    method: "POST",
    path: "/api/v1/messages/7/reactions",
    params: { emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" },
    idempotent: false,
  },
  { name: "removeReaction", call: (c) => api.removeReaction(c, 7, { emoji_name: "tada" }), method: "DELETE", path: "/api/v1/messages/7/reactions", params: { emoji_name: "tada" }, idempotent: false },
  {
    name: "getTopics",
    call: (c) => api.getTopics(c, 3, { allow_empty_topic_name: true }),
    method: "GET",
    path: "/api/v1/users/me/3/topics",
    params: { allow_empty_topic_name: "true" },
    reply: { topics: [{ name: "a", max_id: 3 }] },
    idempotent: true,
  },
  {
    name: "register with every parameter",
    call: (c) =>
      api.register(c, {
        apply_markdown: false,
        client_gravatar: false,
        include_subscribers: "partial",
        slim_presence: true,
        presence_history_limit_days: 7,
        event_types: ["message"],
        fetch_event_types: ["message", "realm_user"],
        all_public_streams: false,
        narrow: [["channel", "general"]],
        client_capabilities: { empty_topic_name: true, individual_emoji_changes: true },
        idle_queue_timeout: 600,
      }),
    method: "POST",
    path: "/api/v1/register",
    params: {
      include_subscribers: "partial",
      presence_history_limit_days: "7",
      fetch_event_types: '["message","realm_user"]',
      narrow: '[["channel","general"]]',
      client_capabilities: '{"empty_topic_name":true,"individual_emoji_changes":true}',
      idle_queue_timeout: "600",
    },
    reply: { queue_id: "q", last_event_id: -1 },
    idempotent: true,
  },
  {
    name: "sendMessage",
    call: (c) => api.sendMessage(c, { type: "stream", to: "general", topic: "t", content: "hi" }),
    method: "POST",
    path: "/api/v1/messages",
    params: { type: "stream", to: "general", topic: "t", content: "hi" },
    reply: { id: 42 },
    idempotent: false,
  },
  {
    name: "updateMessage (move a topic)",
    call: (c) => api.updateMessage(c, 7, { topic: "new", stream_id: 4, propagate_mode: "change_all", send_notification_to_old_thread: false, send_notification_to_new_thread: true }),
    method: "PATCH",
    path: "/api/v1/messages/7",
    params: { topic: "new", stream_id: "4", propagate_mode: "change_all", send_notification_to_old_thread: "false", send_notification_to_new_thread: "true" },
    idempotent: false,
  },
  { name: "deleteMessage", call: (c) => api.deleteMessage(c, 7), method: "DELETE", path: "/api/v1/messages/7", idempotent: true },
  {
    name: "updateMessageFlagsForNarrow",
    call: (c) => api.updateMessageFlagsForNarrow(c, { anchor: "oldest", num_before: 0, num_after: 1000, include_anchor: true, narrow: [{ operator: "channel", operand: 3 }], op: "add", flag: "read" }),
    method: "POST",
    path: "/api/v1/messages/flags/narrow",
    params: { anchor: "oldest", num_before: "0", num_after: "1000", include_anchor: "true", op: "add", flag: "read" },
    reply: { processed_count: 1, updated_count: 1, first_processed_id: 5, last_processed_id: 5, found_oldest: true, found_newest: true },
    idempotent: true,
  },
  {
    name: "setTypingStatus (channel)",
    call: (c) => api.setTypingStatus(c, { op: "start", type: "stream", stream_id: 3, topic: "t" }),
    method: "POST",
    path: "/api/v1/typing",
    params: { op: "start", type: "stream", stream_id: "3", topic: "t" },
    // Retries are off for typing: a stale notification is useless.
    idempotent: false,
  },
  {
    name: "getMessage raw",
    call: (c) => api.getMessage(c, 7, { apply_markdown: false }),
    method: "GET",
    path: "/api/v1/messages/7",
    params: { apply_markdown: "false" },
    reply: { message: msg },
    idempotent: true,
  },
  { name: "getMessageHistory", call: (c) => api.getMessageHistory(c, 7), method: "GET", path: "/api/v1/messages/7/history", reply: { message_history: [] }, idempotent: true },
  { name: "subscribe", call: (c) => api.subscribe(c, { subscriptions: [{ name: "new" }] }), method: "POST", path: "/api/v1/users/me/subscriptions", params: { subscriptions: '[{"name":"new"}]' }, idempotent: false },
  { name: "unsubscribe", call: (c) => api.unsubscribe(c, { subscriptions: ["old"] }), method: "DELETE", path: "/api/v1/users/me/subscriptions", params: { subscriptions: '["old"]' }, idempotent: true },
  { name: "createSavedSnippet", call: (c) => api.createSavedSnippet(c, { title: "a", content: "b" }), method: "POST", path: "/api/v1/saved_snippets", reply: { saved_snippet_id: 1 }, idempotent: false },
  { name: "deleteSavedSnippet", call: (c) => api.deleteSavedSnippet(c, 1), method: "DELETE", path: "/api/v1/saved_snippets/1", idempotent: true },
  { name: "markAllAsRead", call: (c) => api.markAllAsRead(c), method: "POST", path: "/api/v1/mark_all_as_read", idempotent: true },
  { name: "markChannelAsRead", call: (c) => api.markChannelAsRead(c, 3), method: "POST", path: "/api/v1/mark_stream_as_read", params: { stream_id: "3" }, idempotent: true },
  { name: "getUsers", call: (c) => api.getUsers(c), method: "GET", path: "/api/v1/users", reply: { members: [] }, idempotent: true },
  { name: "getSubscriptions", call: (c) => api.getSubscriptions(c, { include_subscribers: true }), method: "GET", path: "/api/v1/users/me/subscriptions", params: { include_subscribers: "true" }, reply: { subscriptions: [] }, idempotent: true },
  { name: "getUserStatus", call: (c) => api.getUserStatus(c, 4), method: "GET", path: "/api/v1/users/4/status", reply: { status: {} }, idempotent: true },
  { name: "getPresence", call: (c) => api.getPresence(c), method: "GET", path: "/api/v1/realm/presence", reply: { presences: {} }, idempotent: true },
];

describe("routes", () => {
  let conn: ReturnType<typeof fakeConnection> | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  for (const c of cases) {
    it(`${c.name}: ${c.method} ${c.path}`, async () => {
      conn = fakeConnection();
      conn.prepare({ body: { ...ok, ...c.reply } });
      await c.call(conn.client);
      const r = conn.last();
      expect(r.method).toBe(c.method);
      expect(r.path).toBe(c.path);
      const sent = r.method === "GET" ? r.query : r.form;
      for (const [k, v] of Object.entries(c.params ?? {})) expect(sent.get(k), k).toBe(v);
      for (const k of c.absent ?? []) expect(sent.has(k), k).toBe(false);
      expect(r.headers.authorization).toMatch(/^Basic /);
    });

    it(`${c.name}: ${c.idempotent ? "retried" : "not retried"} after a 503`, async () => {
      conn = fakeConnection();
      conn.prepare({ status: 503, body: "<html>busy</html>" }, { body: { ...ok, ...c.reply } });
      const outcome = await c.call(conn.client).then(
        () => "ok",
        (e: unknown) => e,
      );
      if (c.idempotent) {
        expect(outcome).toBe("ok");
        expect(conn.requests).toHaveLength(2);
      } else {
        expect(outcome).toBeInstanceOf(ServerError);
        expect(conn.requests).toHaveLength(1);
      }
    });
  }

  it("getServerSettings leaves out the Authorization header", async () => {
    conn = fakeConnection();
    conn.prepare({ body: { ...ok, zulip_feature_level: 372, authentication_methods: { password: true } } });
    const s = await api.getServerSettings(conn.client);
    expect(s.svc_feature_level).toBe(372);
    expect(conn.last().headers.authorization).toBeUndefined();
  });
});

describe("ignoredParameters", () => {
  it("surfaces the parameters the server ignored, kept by every route's parsed response", async () => {
    const conn = fakeConnection();
    conn.prepare({ body: { ...ok, ignored_parameters_unsupported: ["topics_policy"] } });
    const res = await api.updateChannel(conn.client, 5, { topics_policy: "inherit" });
    expect(ignoredParameters(res)).toEqual(["topics_policy"]);
    expect(describeIgnoredParameters("update channel", res)).toMatch(/ignored topics_policy/);
    await conn.close();
  });

  it("is empty when the field is absent", () => {
    expect(ignoredParameters({})).toEqual([]);
    expect(describeIgnoredParameters("x", {})).toBeUndefined();
  });
});
