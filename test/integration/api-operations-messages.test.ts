// Messages: fetch (every anchor form), single message, send, edit/move,
// delete, narrow matching, reactions, flags (by IDs and by narrow), mark a
// topic read and typing — the client's api functions over real HTTP.

import { describe, expect, it } from "vitest";
import {
  addReaction,
  checkMessagesMatchNarrow,
  deleteMessage,
  getChannelId,
  getMessage,
  getMessages,
  markTopicAsRead,
  removeReaction,
  sendMessage,
  setTypingStatus,
  subscribe,
  updateMessage,
  updateMessageFlags,
  updateMessageFlagsForNarrow,
  type ApiClient,
  type GetMessagesParams,
  type NarrowTerm,
} from "../../src/api/index.js";
import { Listener, expectApiError, uniq, useServer } from "./api-operations-kit.js";

const server = useServer();
const as = (who: string): ApiClient => server().client(who);
const userId = (short: string): number => server().server.accounts.find((a) => a.email.startsWith(`${short}@`))!.userId;
const channelId = async (name: string) => (await getChannelId(as("maya"), name)).stream_id;

/** A new public channel (created by ben) with these members, and a topic in it. */
async function room(members: string[] = ["omar", "lena"]): Promise<{ name: string; id: number; topic: string; narrow: NarrowTerm[] }> {
  const name = uniq("room");
  await subscribe(as("ben"), { subscriptions: [{ name }], principals: [userId("ben"), ...members.map(userId)] });
  const topic = uniq("topic");
  return { name, id: await channelId(name), topic, narrow: [{ operator: "channel", operand: name }, { operator: "topic", operand: topic }] };
}

async function post(who: string, r: { id: number; topic: string }, content: string): Promise<number> {
  return (await sendMessage(as(who), { type: "stream", to: r.id, topic: r.topic, content })).id;
}

describe("get messages", () => {
  it("answers every anchor form: an ID, newest, oldest, first_unread, date and the deprecated use_first_unread_anchor", async () => {
    const r = await room();
    const ids = [await post("lena", r, "one"), await post("lena", r, "two"), await post("lena", r, "three")];
    const omar = as("omar");
    const q = (p: GetMessagesParams) => getMessages(omar, { narrow: r.narrow, apply_markdown: false, ...p } as GetMessagesParams);

    const byId = await q({ anchor: ids[1]!, num_before: 1, num_after: 1 });
    expect(byId).toMatchObject({ anchor: ids[1], found_anchor: true, found_oldest: true, found_newest: true });
    expect(byId.messages.map((m) => m.id)).toEqual(ids);
    expect((await q({ anchor: ids[1]!, include_anchor: false, num_before: 0, num_after: 5 })).messages.map((m) => m.id)).toEqual([ids[2]]);

    const newest = await q({ anchor: "newest", num_before: 2, num_after: 0 });
    expect(newest.messages.map((m) => m.content)).toEqual(["two", "three"]);
    expect(newest).toMatchObject({ found_newest: true, found_oldest: false });
    const oldest = await q({ anchor: "oldest", num_before: 0, num_after: 1 });
    expect(oldest).toMatchObject({ found_oldest: true, found_newest: false, messages: [expect.objectContaining({ id: ids[0], content: "one" })] });

    await updateMessageFlags(omar, { messages: [ids[0]!], op: "add", flag: "read" });
    expect(await q({ anchor: "first_unread", num_before: 0, num_after: 0 })).toMatchObject({ anchor: ids[1], found_anchor: true });
    expect(await q({ use_first_unread_anchor: true, num_before: 0, num_after: 0 })).toMatchObject({ anchor: ids[1] });

    const sent = (await getMessage(omar, ids[0]!)).message.timestamp;
    const date = new Date(sent * 1000).toISOString();
    expect((await q({ anchor: "date", anchor_date: date, num_before: 0, num_after: 0 })).messages.map((m) => m.id)).toEqual([ids[0]]);
    const future = await q({ anchor: "date", anchor_date: "2999-01-01", num_before: 1, num_after: 0 });
    expect(future.messages.map((m) => m.id)).toEqual([ids[2]]);
  });

  it("fetches by message_ids, filtered by the narrow and by access", async () => {
    const r = await room();
    const [a, b] = [await post("lena", r, "alpha"), await post("lena", r, "zebracrossing")];
    const elsewhere = (await sendMessage(as("ben"), { type: "direct", to: [userId("maya")], content: "private" })).id;
    const res = await getMessages(as("omar"), { message_ids: [a, b, elsewhere, 99_999_999] });
    expect(res.messages.map((m) => m.id)).toEqual([a, b]);
    expect(res.anchor).toBeUndefined();
    const narrowed = await getMessages(as("omar"), { message_ids: [a, b], narrow: [{ operator: "search", operand: "zebracrossing" }] });
    expect(narrowed.messages.map((m) => m.id)).toEqual([b]);
  });

  it("refuses message_ids with range parameters, more than 5000 messages, a missing anchor and a bad anchor", async () => {
    const omar = as("omar");
    const mixed = { message_ids: [1], anchor: "newest", num_before: 1 } as unknown as GetMessagesParams;
    await expectApiError(getMessages(omar, mixed), "BAD_REQUEST", /^Unsupported parameter combination: /);
    await expectApiError(getMessages(omar, { anchor: "newest", num_before: 5000, num_after: 1 }), "BAD_REQUEST", "Too many messages requested (maximum 5000).");
    await expectApiError(getMessages(omar, { num_before: 1, num_after: 1 }), "REQUEST_VARIABLE_MISSING", "Missing 'anchor' argument");
    await expectApiError(getMessages(omar, { anchor: "yesterday" as "newest", num_before: 1, num_after: 1 }), "BAD_REQUEST", "Invalid anchor");
  });

  it("gets one message, as raw Markdown or HTML; other people's direct messages are invalid", async () => {
    const r = await room();
    const id = await post("lena", r, "**bold** move");
    expect((await getMessage(as("omar"), id, { apply_markdown: false })).message).toMatchObject({ id, content: "**bold** move", subject: r.topic });
    expect((await getMessage(as("omar"), id)).message.content).toContain("<strong>bold</strong>");
    const dm = (await sendMessage(as("ben"), { type: "direct", to: [userId("maya")], content: "psst" })).id;
    await expectApiError(getMessage(as("omar"), dm), "BAD_REQUEST", "Invalid message(s)");
  });
});

describe("send, edit, move and delete", () => {
  it("sends to a channel and as a direct message; recipients' queues get message events, the sender's own echo carries local_message_id", async () => {
    const r = await room();
    const omar = await Listener.open(as("omar"), ["message"]);
    const mine = await Listener.open(as("lena"), ["message"]);
    const { id } = await sendMessage(as("lena"), { type: "stream", to: r.id, topic: r.topic, content: "hello", queue_id: mine.queueId, local_id: "7.01" });
    expect(await omar.next("message", (e) => e.message.id === id)).toMatchObject({ message: { sender_id: userId("lena"), subject: r.topic } });
    const echo = await mine.next("message", (e) => e.message.id === id);
    expect(echo).toMatchObject({ local_message_id: "7.01" });
    const dm = await sendMessage(as("lena"), { type: "direct", to: [userId("omar")], content: "hi omar" });
    expect(await omar.next("message", (e) => e.message.id === dm.id)).toMatchObject({ message: { type: "private", content: expect.stringContaining("hi omar") } });
  });

  it("refuses unknown channels, guests outside a channel and members in an administrators-only channel", async () => {
    const missing = uniq("nochannel");
    await expectApiError(sendMessage(as("omar"), { type: "stream", to: missing, topic: "t", content: "x" }), "STREAM_DOES_NOT_EXIST", `Channel '${missing}' does not exist`);
    await expectApiError(sendMessage(as("sam"), { type: "stream", to: "random", topic: "t", content: "x" }), "BAD_REQUEST", "Not authorized to send to channel 'random'");
    await expectApiError(sendMessage(as("omar"), { type: "stream", to: "announcements", topic: "t", content: "x" }), "BAD_REQUEST", "You do not have permission to post in this channel.");
    await expectApiError(sendMessage(as("omar"), { type: "stream", to: "general", topic: "t", content: "  " }), "BAD_REQUEST", "Message must not be empty");
  });

  it("edits content and moves a topic; other users get update_message events; only the sender edits content", async () => {
    const r = await room();
    const [first, second] = [await post("lena", r, "draft text"), await post("lena", r, "more")];
    const omar = await Listener.open(as("omar"), ["update_message"]);
    await updateMessage(as("lena"), first, { content: "final text" });
    expect(await omar.next("update_message", (e) => e.message_id === first && e.content !== undefined)).toMatchObject({ content: "final text", orig_content: "draft text" });
    await expectApiError(updateMessage(as("omar"), first, { content: "hijack" }), "BAD_REQUEST", "You don't have permission to edit this message");

    const moved = uniq("moved");
    await updateMessage(as("lena"), first, { topic: moved, propagate_mode: "change_all" });
    const move = await omar.next("update_message", (e) => e.subject === moved);
    expect(move).toMatchObject({ orig_subject: r.topic, propagate_mode: "change_all", stream_id: r.id });
    expect([...move.message_ids].sort()).toEqual([first, second].sort());
    expect((await getMessage(as("omar"), second, { apply_markdown: false })).message.subject).toBe(moved);
    await expectApiError(updateMessage(as("lena"), 99_999_999, { content: "ghost" }), "BAD_REQUEST", "Invalid message(s)");
  });

  it("deletes: refused to a member for another's message, allowed to an administrator; readers get delete_message", async () => {
    const r = await room();
    const id = await post("lena", r, "oops");
    const omar = await Listener.open(as("omar"), ["delete_message"], { client_capabilities: { bulk_message_deletion: true } });
    await expectApiError(deleteMessage(as("omar"), id), "BAD_REQUEST", "You don't have permission to delete this message");
    await deleteMessage(as("ben"), id);
    expect(await omar.next("delete_message")).toMatchObject({ message_ids: [id], message_type: "stream", stream_id: r.id, topic: r.topic });
    await expectApiError(getMessage(as("omar"), id), "BAD_REQUEST", "Invalid message(s)");
  });
});

describe("matches_narrow", () => {
  it("says which messages match a narrow, with highlighted content and topic", async () => {
    const r = await room();
    const [hit, miss] = [await post("lena", r, "the lighthouse keeper"), await post("lena", r, "nothing here")];
    const res = await checkMessagesMatchNarrow(as("omar"), { msg_ids: [hit, miss], narrow: [{ operator: "search", operand: "keeper" }] });
    expect(Object.keys(res.messages)).toEqual([String(hit)]);
    expect(res.messages[String(hit)]).toEqual({ match_content: expect.stringContaining('<span class="highlight">keeper</span>'), match_subject: expect.any(String) });
  });
});

describe("reactions", () => {
  it("adds and removes; readers get reaction events; a repeat is REACTION_ALREADY_EXISTS, a bad code is refused", async () => {
    const r = await room();
    const id = await post("lena", r, "react to me");
    const lena = await Listener.open(as("lena"), ["reaction"]);
    await addReaction(as("omar"), id, { emoji_name: "tada" });
    expect(await lena.next("reaction", (e) => e.op === "add")).toMatchObject({ message_id: id, user_id: userId("omar"), emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" });
    await expectApiError(addReaction(as("omar"), id, { emoji_name: "tada" }), "REACTION_ALREADY_EXISTS", "Reaction already exists.");
    await expectApiError(addReaction(as("omar"), id, { emoji_name: "tada", emoji_code: "zzzz", reaction_type: "unicode_emoji" }), "BAD_REQUEST", "Invalid emoji code");
    await expectApiError(addReaction(as("omar"), id, { emoji_name: "no_such_emoji_name" }), "BAD_REQUEST", "Emoji 'no_such_emoji_name' does not exist");
    await addReaction(as("omar"), id, { emoji_name: "lighthouse", reaction_type: "realm_emoji", emoji_code: "1" });
    expect(await lena.next("reaction", (e) => e.op === "add" && e.reaction_type === "realm_emoji")).toMatchObject({ emoji_code: "1" });
    await removeReaction(as("omar"), id, { emoji_name: "tada" });
    expect(await lena.next("reaction", (e) => e.op === "remove")).toMatchObject({ message_id: id, emoji_name: "tada" });
    await expectApiError(removeReaction(as("omar"), id, { emoji_name: "tada" }), "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.");
    const reactions = (await getMessage(as("lena"), id)).message.reactions;
    expect(reactions).toEqual([expect.objectContaining({ emoji_name: "lighthouse", reaction_type: "realm_emoji", user_id: userId("omar") })]);
  });
});

describe("flags", () => {
  it("adds and removes a flag by IDs; the user's other clients get update_message_flags", async () => {
    const r = await room();
    const id = await post("lena", r, "star me");
    const other = await Listener.open(as("omar"), ["update_message_flags"]);
    expect(await updateMessageFlags(as("omar"), { messages: [id], op: "add", flag: "starred" })).toMatchObject({ messages: [id] });
    expect(await other.next("update_message_flags")).toMatchObject({ op: "add", flag: "starred", messages: [id] });
    await updateMessageFlags(as("omar"), { messages: [id], op: "remove", flag: "starred" });
    expect(await other.next("update_message_flags")).toMatchObject({ op: "remove", flag: "starred", messages: [id] });
    await expectApiError(updateMessageFlags(as("omar"), { messages: [99_999_999], op: "add", flag: "starred" }), "BAD_REQUEST", "Invalid message(s)");
    await expectApiError(updateMessageFlags(as("omar"), { messages: [id], op: "add", flag: "mentioned" }), "BAD_REQUEST", "Flag not editable: 'mentioned'");
  });

  it("updates a flag over a narrow window and reports how far it got", async () => {
    const r = await room();
    const ids = [await post("lena", r, "1"), await post("lena", r, "2"), await post("lena", r, "3")];
    const other = await Listener.open(as("omar"), ["update_message_flags"]);
    const res = await updateMessageFlagsForNarrow(as("omar"), { anchor: "oldest", num_before: 0, num_after: 2, narrow: r.narrow, op: "add", flag: "read" });
    expect(res).toMatchObject({ processed_count: 2, updated_count: 2, first_processed_id: ids[0], last_processed_id: ids[1], found_oldest: true, found_newest: false });
    expect(await other.next("update_message_flags")).toMatchObject({ op: "add", flag: "read", messages: [ids[0], ids[1]] });
    const rest = await updateMessageFlagsForNarrow(as("omar"), { anchor: ids[1]!, include_anchor: false, num_before: 0, num_after: 10, narrow: r.narrow, op: "add", flag: "read" });
    expect(rest).toMatchObject({ processed_count: 1, updated_count: 1, found_newest: true });
  });

  it("marks a topic read (deprecated endpoint) and refuses unknown channels", async () => {
    const r = await room();
    const ids = [await post("lena", r, "x"), await post("lena", r, "y")];
    const other = await Listener.open(as("omar"), ["update_message_flags"]);
    await markTopicAsRead(as("omar"), r.id, r.topic);
    const ev = await other.next("update_message_flags");
    expect(ev).toMatchObject({ op: "add", flag: "read" });
    expect([...ev.messages].sort()).toEqual([...ids].sort());
    await expectApiError(markTopicAsRead(as("omar"), 999_999, r.topic), "BAD_REQUEST", "Invalid channel ID");
  });
});

describe("typing", () => {
  it("notifies DM recipients and channel subscribers; refuses empty recipients and unknown channels", async () => {
    const r = await room();
    const omar = await Listener.open(as("omar"), ["typing"], { client_capabilities: { stream_typing_notifications: true } });
    await setTypingStatus(as("lena"), { op: "start", type: "direct", to: [userId("omar")] });
    expect(await omar.next("typing", (e) => e.op === "start")).toMatchObject({ message_type: "direct", sender: { user_id: userId("lena") } });
    await setTypingStatus(as("lena"), { op: "stop", type: "stream", stream_id: r.id, topic: r.topic });
    expect(await omar.next("typing", (e) => e.op === "stop")).toMatchObject({ message_type: "stream", stream_id: r.id, topic: r.topic });
    await expectApiError(setTypingStatus(as("lena"), { op: "start", type: "direct", to: [] }), "BAD_REQUEST", "Empty 'to' list");
    await expectApiError(setTypingStatus(as("lena"), { op: "start", type: "stream", stream_id: 999_999, topic: "t" }), "BAD_REQUEST", "Invalid channel ID");
  });
});
