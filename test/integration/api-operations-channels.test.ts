// Channels, subscriptions, channel folders, topics and topic visibility: the
// client's api functions against the reference server over real HTTP.

import { describe, expect, it } from "vitest";
import {
  createChannelFolder,
  getChannelFolders,
  getChannelId,
  getSubscriptions,
  getTopics,
  register,
  sendMessage,
  subscribe,
  unsubscribe,
  updateChannel,
  updateChannelFolder,
  updateSubscriptionProperty,
  updateSubscriptionSettings,
  updateUserTopic,
  VisibilityPolicy,
  type ApiClient,
} from "../../src/api/index.js";
import { Listener, expectApiError, uniq, useServer } from "./api-operations-kit.js";

const server = useServer();
const as = (who: string): ApiClient => server().client(who);
const channelId = async (name: string) => (await getChannelId(as("maya"), name)).stream_id;

const userId = (short: string): number => {
  const a = server().server.accounts.find((x) => x.email.startsWith(`${short}@`));
  if (!a) throw new Error(`no demo account ${short}`);
  return a.userId;
};

/** A new public channel created by `creator` (an administrator by default), with `others` subscribed too. */
async function newChannel(creator = "ben", others: string[] = []): Promise<{ name: string; id: number }> {
  const name = uniq("chan");
  await subscribe(as(creator), { subscriptions: [{ name, description: "test channel" }] });
  if (others.length) await subscribe(as(creator), { subscriptions: [{ name }], principals: others.map(userId) });
  return { name, id: await channelId(name) };
}

/** The ID of a system group such as role:members, from the register response. */
async function groupId(name: string): Promise<number> {
  const reg = await register(as("ben"), { fetch_event_types: ["realm_user_groups"] });
  const group = reg.realm_user_groups?.find((g) => g.name === name);
  if (!group) throw new Error(`no group ${name}`);
  return group.id;
}

describe("update a channel", () => {
  it("changes description and name; subscribers get stream update events", async () => {
    const ch = await newChannel("ben", ["omar"]);
    const omar = await Listener.open(as("omar"), ["stream"]);
    const newName = uniq("renamed");
    await expect(updateChannel(as("ben"), ch.id, { description: "Now **bold**", new_name: newName })).resolves.toMatchObject({ result: "success" });
    const desc = await omar.next("stream", (e) => e.op === "update" && e.property === "description");
    expect(desc).toMatchObject({ stream_id: ch.id, value: "Now **bold**", rendered_description: expect.stringContaining("<strong>bold</strong>") });
    expect(await omar.next("stream", (e) => e.op === "update" && e.property === "name")).toMatchObject({ stream_id: ch.id, value: newName });
    expect(await channelId(newName)).toBe(ch.id);
  });

  it("moves a channel into a folder and out again (folder_id null)", async () => {
    const ch = await newChannel("ben", ["omar"]);
    const { channel_folder_id: folder } = await createChannelFolder(as("ben"), { name: uniq("folder"), description: "" });
    const omar = await Listener.open(as("omar"), ["stream"]);
    await updateChannel(as("ben"), ch.id, { folder_id: folder });
    expect(await omar.next("stream", (e) => e.op === "update" && e.property === "folder_id")).toMatchObject({ value: folder });
    await updateChannel(as("ben"), ch.id, { folder_id: null });
    expect(await omar.next("stream", (e) => e.op === "update" && e.property === "folder_id")).toMatchObject({ value: null });
  });

  it("changes a permission with {new, old} and refuses a stale old value", async () => {
    const ch = await newChannel();
    const [admins, members, everyone] = [await groupId("role:administrators"), await groupId("role:members"), await groupId("role:everyone")];
    const group = (name: string) => ({ "role:administrators": admins, "role:members": members, "role:everyone": everyone })[name]!;
    await updateChannel(as("ben"), ch.id, { can_send_message_group: { new: group("role:administrators") } });
    await expectApiError(
      updateChannel(as("ben"), ch.id, { can_send_message_group: { new: group("role:members"), old: group("role:everyone") } }),
      "BAD_REQUEST",
      "'old' value does not match the expected value.",
    );
    await updateChannel(as("ben"), ch.id, { can_send_message_group: { new: group("role:members"), old: group("role:administrators") } });
  });

  it("refuses members who may not administer the channel, unknown channels and protected history on a public channel", async () => {
    const ch = await newChannel("ben", ["omar"]);
    await expectApiError(updateChannel(as("omar"), ch.id, { description: "mine now" }), "BAD_REQUEST", "You do not have permission to administer this channel.");
    await expectApiError(updateChannel(as("sam"), ch.id, { description: "guest" }), "BAD_REQUEST");
    await expectApiError(updateChannel(as("ben"), 999_999, { description: "x" }), "BAD_REQUEST", "Invalid channel ID");
    await expectApiError(updateChannel(as("ben"), ch.id, { history_public_to_subscribers: false }), "BAD_REQUEST", "Invalid parameters");
    await expectApiError(updateChannel(as("ben"), ch.id, { is_private: false, history_public_to_subscribers: false }), "BAD_REQUEST", "Invalid parameters");
    // The creator administers their own channel.
    const mine = await newChannel("omar");
    await updateChannel(as("omar"), mine.id, { description: "mine" });
  });

  it("only unarchives an archived channel (is_archived false); other edits are refused until then", async () => {
    const archived = await channelId("mobile-app");
    const diego = await Listener.open(as("diego"), ["stream"], { client_capabilities: { archived_channels: true } });
    await expectApiError(updateChannel(as("ben"), archived, { description: "still archived" }), "BAD_REQUEST", "You cannot modify an archived channel; unarchive it first.");
    await updateChannel(as("ben"), archived, { is_archived: false });
    expect(await diego.next("stream", (e) => e.op === "update" && e.property === "is_archived")).toMatchObject({ stream_id: archived, value: false });
    await updateChannel(as("ben"), archived, { description: "back in use" });
  });
});

describe("personal subscription settings", () => {
  it("bulk-updates several properties; is_muted gives two update events (in_home_view and is_muted)", async () => {
    const [general, random] = [await channelId("general"), await channelId("random")];
    const other = await Listener.open(as("omar"), ["subscription"]);
    await updateSubscriptionSettings(as("omar"), [
      { stream_id: general, property: "color", value: "#a1b2c3" },
      { stream_id: random, property: "is_muted", value: true },
      { stream_id: general, property: "pin_to_top", value: true },
    ]);
    expect(await other.next("subscription", (e) => e.op === "update" && e.property === "color")).toMatchObject({ stream_id: general, value: "#a1b2c3" });
    expect(await other.next("subscription", (e) => e.op === "update" && e.property === "in_home_view")).toMatchObject({ stream_id: random, value: false });
    expect(await other.next("subscription", (e) => e.op === "update" && e.property === "is_muted")).toMatchObject({ stream_id: random, value: true });
    expect(await other.next("subscription", (e) => e.op === "update" && e.property === "pin_to_top")).toMatchObject({ stream_id: general, value: true });
    const subs = (await getSubscriptions(as("omar"))).subscriptions;
    expect(subs.find((s) => s.stream_id === general)).toMatchObject({ color: "#a1b2c3", pin_to_top: true });
    expect(subs.find((s) => s.stream_id === random)).toMatchObject({ is_muted: true, in_home_view: false });
  });

  it("refuses unknown properties, bad values, unknown channels and channels one is not subscribed to", async () => {
    const general = await channelId("general");
    const helpDesk = await channelId("help-desk");
    const bad = (data: unknown) => updateSubscriptionSettings(as("sam"), data as Parameters<typeof updateSubscriptionSettings>[1]);
    await expectApiError(bad([{ stream_id: general, property: "volume", value: true }]), "BAD_REQUEST", "Unknown subscription property: volume");
    await expectApiError(bad([{ stream_id: general, property: "color", value: "blue" }]), "BAD_REQUEST", "color is not a valid hex color code");
    await expectApiError(bad([{ stream_id: general, property: "is_muted", value: "yes" }]), "BAD_REQUEST", "is_muted is not a boolean");
    await expectApiError(bad([{ stream_id: 999_999, property: "is_muted", value: true }]), "BAD_REQUEST", "Invalid channel ID");
    // A guest cannot see a public channel it is not in; a member can, but is not subscribed.
    await expectApiError(bad([{ stream_id: helpDesk, property: "is_muted", value: true }]), "BAD_REQUEST", "Invalid channel ID");
    const engineering = await channelId("engineering");
    await expectApiError(
      updateSubscriptionSettings(as("lena"), [{ stream_id: engineering, property: "is_muted", value: true }]),
      "BAD_REQUEST",
      `Not subscribed to channel ID ${engineering}`,
    );
  });

  it("updates one property of one channel (POST /users/me/subscriptions/{stream_id})", async () => {
    const design = await channelId("design");
    const other = await Listener.open(as("lena"), ["subscription"]);
    await updateSubscriptionProperty(as("lena"), design, { property: "color", value: "#123456" });
    await updateSubscriptionProperty(as("lena"), design, { property: "desktop_notifications", value: false });
    await updateSubscriptionProperty(as("lena"), design, { property: "in_home_view", value: false });
    expect(await other.next("subscription", (e) => e.op === "update" && e.property === "color")).toMatchObject({ stream_id: design, value: "#123456" });
    expect(await other.next("subscription", (e) => e.property === "desktop_notifications")).toMatchObject({ value: false });
    expect(await other.next("subscription", (e) => e.property === "is_muted")).toMatchObject({ stream_id: design, value: true });
    const sub = (await getSubscriptions(as("lena"))).subscriptions.find((s) => s.stream_id === design);
    expect(sub).toMatchObject({ color: "#123456", desktop_notifications: false, is_muted: true });
    await expectApiError(updateSubscriptionProperty(as("lena"), design, { property: "pin_to_top", value: "x" as unknown as boolean }), "BAD_REQUEST", "pin_to_top is not a boolean");
    await expectApiError(updateSubscriptionProperty(as("lena"), 999_999, { property: "pin_to_top", value: true }), "BAD_REQUEST", "Invalid channel ID");
  });
});

describe("subscribe and unsubscribe", () => {
  it("subscribes others and oneself; the user gets subscription add, other subscribers peer_add and peer_remove", async () => {
    const name = uniq("club");
    const ben = await Listener.open(as("ben"), ["subscription"]);
    const omarQueue = await Listener.open(as("omar"), ["subscription"]);
    const omarId = userId("omar");
    const created = await subscribe(as("ben"), { subscriptions: [{ name, description: "Club" }] });
    expect(created.subscribed).toEqual({ [String(userId("ben"))]: [name] });
    const again = await subscribe(as("omar"), { subscriptions: [{ name }] });
    expect(again.subscribed).toEqual({ [String(omarId)]: [name] });
    expect(await omarQueue.next("subscription", (e) => e.op === "add")).toMatchObject({ subscriptions: [expect.objectContaining({ name })] });
    const id = await channelId(name);
    expect(await ben.next("subscription", (e) => e.op === "peer_add")).toMatchObject({ stream_ids: [id], user_ids: [omarId] });
    expect((await subscribe(as("omar"), { subscriptions: [{ name }] })).already_subscribed).toEqual({ [String(omarId)]: [name] });
    expect(await unsubscribe(as("omar"), { subscriptions: [name] })).toMatchObject({ removed: [name], not_removed: [] });
    expect(await unsubscribe(as("omar"), { subscriptions: [name] })).toMatchObject({ removed: [], not_removed: [name] });
    expect(await ben.next("subscription", (e) => e.op === "peer_remove")).toMatchObject({ stream_ids: [id], user_ids: [omarId] });
    expect(await omarQueue.next("subscription", (e) => e.op === "remove")).toMatchObject({ subscriptions: [expect.objectContaining({ stream_id: id })] });
  });

  it("refuses a guest creating channels, members unsubscribing others and unknown channels", async () => {
    await expectApiError(subscribe(as("sam"), { subscriptions: [{ name: uniq("guest") }] }), "BAD_REQUEST", "Insufficient permission");
    const benId = userId("ben");
    await expectApiError(unsubscribe(as("omar"), { subscriptions: ["general"], principals: [benId] }), "BAD_REQUEST", "Insufficient permission");
    const missing = uniq("nowhere");
    await expectApiError(unsubscribe(as("omar"), { subscriptions: [missing] }), "STREAM_DOES_NOT_EXIST", `Channel '${missing}' does not exist`);
  });
});

describe("channel folders", () => {
  it("creates, lists, renames, describes and archives folders; everyone gets channel_folder events", async () => {
    const omar = await Listener.open(as("omar"), ["channel_folder"]);
    const name = uniq("Folder");
    const { channel_folder_id: id } = await createChannelFolder(as("ben"), { name, description: "" });
    expect(await omar.next("channel_folder", (e) => e.op === "add")).toMatchObject({ channel_folder: { id, name, description: "", is_archived: false } });
    const listed = (await getChannelFolders(as("omar"))).channel_folders;
    expect(listed.find((f) => f.id === id)).toMatchObject({ name, order: expect.any(Number), creator_id: userId("ben") });
    expect(listed.map((f) => f.order)).toEqual([...listed.map((f) => f.order)].sort((a, b) => a - b));

    const renamed = uniq("Renamed");
    await updateChannelFolder(as("ben"), id, { name: renamed, description: "With *words*" });
    expect(await omar.next("channel_folder", (e) => e.op === "update")).toMatchObject({ channel_folder_id: id, data: { name: renamed, description: "With *words*" } });
    await updateChannelFolder(as("maya"), id, { is_archived: true });
    expect(await omar.next("channel_folder", (e) => e.op === "update")).toMatchObject({ channel_folder_id: id, data: { is_archived: true } });
    expect((await getChannelFolders(as("omar"))).channel_folders.some((f) => f.id === id)).toBe(false);
    expect((await getChannelFolders(as("omar"), { include_archived: true })).channel_folders.find((f) => f.id === id)).toMatchObject({ is_archived: true });
    await updateChannelFolder(as("maya"), id, { is_archived: false });
  });

  it("is for organization administrators only, and names the invalid folder ID", async () => {
    await expectApiError(createChannelFolder(as("omar"), { name: uniq("no") }), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectApiError(createChannelFolder(as("priya"), { name: uniq("no") }), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    const { channel_folder_id: id } = await createChannelFolder(as("ben"), { name: uniq("mine") });
    await expectApiError(updateChannelFolder(as("omar"), id, { name: "taken over" }), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectApiError(updateChannelFolder(as("ben"), 999_999, { name: "ghost" }), "BAD_REQUEST", "Invalid channel folder ID");
    await expectApiError(createChannelFolder(as("ben"), { name: "  " }), "BAD_REQUEST", "Channel folder name can't be empty.");
  });
});

describe("topics and topic visibility", () => {
  it("lists a channel's topics newest first with their highest message ID", async () => {
    const general = await channelId("general");
    const topic = uniq("topic");
    const { id } = await sendMessage(as("omar"), { type: "stream", to: general, topic, content: "first" });
    const { topics } = await getTopics(as("lena"), general);
    expect(topics[0]).toEqual({ name: topic, max_id: id });
    expect(topics.every((t, i) => i === 0 || t.max_id <= topics[i - 1]!.max_id)).toBe(true);
  });

  it("refuses unknown channels and private channels one cannot read", async () => {
    await expectApiError(getTopics(as("omar"), 999_999), "BAD_REQUEST", "Invalid channel ID");
    await expectApiError(getTopics(as("omar"), await channelId("leadership")), "BAD_REQUEST", "Invalid channel ID");
  });

  it("sets each visibility policy directly, whether or not the topic has messages; the user's other clients get user_topic events", async () => {
    const engineering = await channelId("engineering");
    const topic = uniq("quiet");
    const other = await Listener.open(as("priya"), ["user_topic"]);
    for (const policy of [VisibilityPolicy.Muted, VisibilityPolicy.Followed, VisibilityPolicy.Unmuted, VisibilityPolicy.None]) {
      await updateUserTopic(as("priya"), { stream_id: engineering, topic, visibility_policy: policy });
      expect(await other.next("user_topic")).toMatchObject({ stream_id: engineering, topic_name: topic, visibility_policy: policy });
    }
    await expectApiError(updateUserTopic(as("priya"), { stream_id: 999_999, topic, visibility_policy: 1 }), "BAD_REQUEST", "Invalid channel ID");
    await expectApiError(updateUserTopic(as("priya"), { stream_id: engineering, topic, visibility_policy: 7 as VisibilityPolicy }), "BAD_REQUEST", "Invalid visibility_policy");
  });
});
