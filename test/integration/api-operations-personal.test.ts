// Per-user data and the event queue: drafts, saved snippets, the APNs token,
// server settings, register with its parameters, events, queue deletion and
// BAD_EVENT_QUEUE_ID — the client's api functions over real HTTP.

import { describe, expect, it } from "vitest";
import {
  addApnsDeviceToken,
  createDrafts,
  createSavedSnippet,
  deleteDraft,
  deleteQueue,
  deleteSavedSnippet,
  editDraft,
  editSavedSnippet,
  fetchServerSettings,
  getChannelId,
  getDrafts,
  getEvents,
  getSavedSnippets,
  getServerSettings,
  register,
  removeApnsDeviceToken,
  sendMessage,
  type ApiClient,
  type DraftInput,
} from "../../src/api/index.js";
import { withServer } from "../fixtures/server.js";
import { Listener, expectApiError, uniq, useServer } from "./api-operations-kit.js";

const server = useServer();
const as = (who: string): ApiClient => server().client(who);
const userId = (short: string): number => server().server.accounts.find((a) => a.email.startsWith(`${short}@`))!.userId;
const channelId = async (name: string) => (await getChannelId(as("maya"), name)).stream_id;

describe("drafts", () => {
  it("creates (timestamp filled in), edits and deletes; the user's other clients get drafts events", async () => {
    const other = await Listener.open(as("hana"), ["drafts"]);
    const general = await channelId("general");
    const topic = uniq("draft");
    const drafts: DraftInput[] = [
      { type: "stream", to: [general], topic, content: "channel draft" },
      { type: "private", to: [userId("omar")], content: "dm draft", timestamp: 1_700_000_000 },
      { type: "", to: [], content: "unaddressed" },
    ];
    const { ids } = await createDrafts(as("hana"), drafts);
    expect(ids).toHaveLength(3);
    const added = await other.nextOp("drafts", "add");
    expect(added.drafts.map((d) => d.content)).toEqual(["channel draft", "dm draft", "unaddressed"]);
    expect(added.drafts[0]!.timestamp).toBeGreaterThan(1_700_000_000);
    expect(added.drafts[1]).toMatchObject({ type: "private", to: [userId("omar")], timestamp: 1_700_000_000 });

    await editDraft(as("hana"), ids[0]!, { type: "stream", to: [general], topic, content: "edited" });
    expect(await other.next("drafts", (e) => e.op === "update")).toMatchObject({ draft: { id: ids[0], content: "edited", topic } });
    await deleteDraft(as("hana"), ids[2]!);
    expect(await other.next("drafts", (e) => e.op === "remove")).toMatchObject({ draft_id: ids[2] });
    const listed = (await getDrafts(as("hana"))).drafts.filter((d) => ids.includes(d.id!));
    expect(listed.map((d) => d.content)).toEqual(["edited", "dm draft"]);
  });

  it("refuses an unknown draft, a channel draft without exactly one channel, and other users' drafts", async () => {
    const general = await channelId("general");
    const bad = { type: "stream", to: [general, general], topic: "t", content: "x" } as unknown as DraftInput;
    await expectApiError(createDrafts(as("hana"), [bad]), "BAD_REQUEST", "Must specify exactly 1 channel ID for channel messages");
    await expectApiError(createDrafts(as("hana"), [{ type: "stream", to: [] as unknown as [number], topic: "t", content: "x" }]), "BAD_REQUEST", "Must specify exactly 1 channel ID for channel messages");
    await expectApiError(editDraft(as("hana"), 99_999, { type: "", to: [], content: "x" }), "BAD_REQUEST", "Draft does not exist");
    const { ids } = await createDrafts(as("hana"), [{ type: "", to: [], content: "mine" }]);
    await expectApiError(editDraft(as("omar"), ids[0]!, { type: "", to: [], content: "stolen" }), "BAD_REQUEST", "Draft does not exist");
    await expectApiError(deleteDraft(as("omar"), ids[0]!), "BAD_REQUEST", "Draft does not exist");
  });
});

describe("saved snippets", () => {
  it("creates, lists, edits and deletes; the user's other clients get saved_snippets events", async () => {
    const other = await Listener.open(as("priya"), ["saved_snippets"]);
    const title = uniq("snippet");
    const { saved_snippet_id: id } = await createSavedSnippet(as("priya"), { title, content: "Thanks, **merged**!" });
    expect(await other.next("saved_snippets", (e) => e.op === "add")).toMatchObject({ saved_snippet: { id, title, content: "Thanks, **merged**!" } });
    expect((await getSavedSnippets(as("priya"))).saved_snippets.find((s) => s.id === id)).toMatchObject({ title, date_created: expect.any(Number) });
    await editSavedSnippet(as("priya"), id, { content: "Thanks!" });
    expect(await other.next("saved_snippets", (e) => e.op === "update")).toMatchObject({ saved_snippet: { id, content: "Thanks!" } });
    await deleteSavedSnippet(as("priya"), id);
    expect(await other.next("saved_snippets", (e) => e.op === "remove")).toMatchObject({ saved_snippet_id: id });
    await expectApiError(deleteSavedSnippet(as("priya"), id), "BAD_REQUEST", "Saved snippet does not exist.");
    await expectApiError(createSavedSnippet(as("priya"), { title: " ", content: "x" }), "BAD_REQUEST", "Title cannot be empty.");
  });
});

describe("APNs device token (deprecated)", () => {
  it("registers a token for an app ID, and refuses empty, over-long and non-hex tokens", async () => {
    const token = "ab".repeat(32);
    await addApnsDeviceToken(as("omar"), { token, appid: "org.example.termchat" });
    await addApnsDeviceToken(as("omar"), { token, appid: "org.example.termchat" }); // twice is harmless
    await expectApiError(addApnsDeviceToken(as("omar"), { token: "", appid: "org.example.termchat" }), "BAD_REQUEST", "Empty or invalid length token");
    await expectApiError(addApnsDeviceToken(as("omar"), { token: "a".repeat(256), appid: "org.example.termchat" }), "BAD_REQUEST", "Empty or invalid length token");
    await expectApiError(addApnsDeviceToken(as("omar"), { token: "not-hex!", appid: "org.example.termchat" }), "BAD_REQUEST", /invalid/i);
    await removeApnsDeviceToken(as("omar"), { token });
    await expectApiError(removeApnsDeviceToken(as("omar"), { token }), "BAD_REQUEST", "Token does not exist");
  });
});

describe("server settings", () => {
  it("answers without credentials, with the feature level under the spec's name", async () => {
    const settings = await fetchServerSettings(server().server.url);
    expect(settings.svc_feature_level).toBeGreaterThanOrEqual(389);
    expect(settings).toMatchObject({ realm_name: "Lighthouse Labs", email_auth_enabled: true, authentication_methods: expect.objectContaining({ password: true }) });
    expect((await getServerSettings(as("omar"))).svc_feature_level).toBe(settings.svc_feature_level);
  });
});

describe("register an event queue", () => {
  it("honours its parameters: fetch_event_types, include_subscribers, slim_presence, capabilities, idle_queue_timeout", async () => {
    const reg = await register(as("omar"), {
      fetch_event_types: ["subscription", "presence", "realm_user", "channel_folders", "drafts"],
      event_types: ["message"],
      include_subscribers: true,
      slim_presence: true,
      presence_history_limit_days: 30,
      client_gravatar: false,
      apply_markdown: true,
      client_capabilities: { notification_settings_null: true, empty_topic_name: true, user_avatar_url_field_optional: false },
      idle_queue_timeout: 120,
    });
    expect(reg).toMatchObject({ queue_id: expect.any(String), last_event_id: -1, idle_queue_timeout_secs: 120 });
    expect(reg.svc_feature_level).toBeGreaterThanOrEqual(389);
    const general = reg.subscriptions.find((s) => s.name === "general")!;
    expect(general.subscribers).toContain(userId("omar"));
    expect(general.desktop_notifications).toBeNull(); // notification_settings_null
    expect(Object.keys(reg.presences ?? {})).toContain(String(userId("maya"))); // slim: keyed by ID
    expect(reg.realm_users.all().length).toBeGreaterThan(5);
    expect(reg.realm_users.all().every(([, u]) => typeof u.avatar_url === "string")).toBe(true);
    expect(reg.unread_msgs).toBeUndefined(); // not asked for

    const partial = await register(as("omar"), { fetch_event_types: ["subscription"], include_subscribers: "partial" });
    expect(partial.subscriptions.length).toBeGreaterThan(0);
    const legacy = await register(as("omar"), { fetch_event_types: ["presence"] });
    expect(Object.keys(legacy.presences ?? {})).toContain(server().server.accounts[0]!.email);
    await expectApiError(register(as("omar"), { idle_queue_timeout: 0 }), "BAD_REQUEST", /^idle_queue_timeout must be between 1 and/);
  });

  it("filters message events by the queue's narrow and adds public channels with all_public_streams", async () => {
    const onlyGeneral = await Listener.open(as("lena"), ["message"], { narrow: [["channel", "general"]] });
    const allPublic = await Listener.open(as("lena"), ["message"], { all_public_streams: true });
    const inEngineering = await sendMessage(as("omar"), { type: "stream", to: "engineering", topic: uniq("t"), content: "eng" });
    const inGeneral = await sendMessage(as("omar"), { type: "stream", to: "general", topic: uniq("t"), content: "gen" });
    expect(await onlyGeneral.next("message")).toMatchObject({ message: { id: inGeneral.id } });
    expect(await allPublic.next("message", (e) => e.message.id === inEngineering.id)).toMatchObject({ message: { display_recipient: "engineering" } });
    await onlyGeneral.expectNone("message");
  });
});

describe("events and the queue", () => {
  it("long-polls: a blocked getEvents wakes when another user sends a message", async () => {
    const reg = await register(as("omar"), { fetch_event_types: ["realm"], event_types: ["message"] });
    const poll = getEvents(as("omar"), { queue_id: reg.queue_id!, last_event_id: reg.last_event_id }, { timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 100));
    const { id } = await sendMessage(as("lena"), { type: "direct", to: [userId("omar")], content: "wake up" });
    const { events } = await poll;
    expect(events).toEqual([expect.objectContaining({ type: "message", message: expect.objectContaining({ id }) })]);
  });

  it("deletes a queue; polling it then gives BAD_EVENT_QUEUE_ID with the queue ID", async () => {
    const listener = await Listener.open(as("omar"));
    await deleteQueue(as("omar"), listener.queueId);
    const err = await expectApiError(listener.poll(), "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${listener.queueId}`, 400);
    expect(err.data).toMatchObject({ queue_id: listener.queueId });
    await expectApiError(deleteQueue(as("omar"), listener.queueId), "BAD_EVENT_QUEUE_ID");
    // Another user's queue is not theirs to read.
    const mine = await Listener.open(as("omar"));
    await expectApiError(getEvents(as("lena"), { queue_id: mine.queueId, last_event_id: -1, dont_block: true }), "BAD_EVENT_QUEUE_ID");
  });

  it("garbage-collects an idle queue: a later poll gives BAD_EVENT_QUEUE_ID", async () => {
    const ctx = await withServer({ queueIdleMs: 150 });
    try {
      const listener = await Listener.open(ctx.client("omar"));
      await new Promise((r) => setTimeout(r, 500));
      await expectApiError(listener.poll(), "BAD_EVENT_QUEUE_ID");
      expect(ctx.conformance.problems()).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
