/**
 * Marking a wildcard-mentioning message unread again: the event says it is a
 * mention exactly when a fresh register would count it as one.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { getEvents, register } from "../../src/api/routes/events.js";
import { sendMessage } from "../../src/api/routes/messages.js";
import { updateMessageFlags } from "../../src/api/routes/message-flags.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
beforeEach(async () => {
  ctx = await withServer();
});
afterEach(async () => ctx.close());

it("reports a wildcard mention in message_details when the register counts it", async () => {
  const reg = await register(ctx.client());
  const general = reg.subscriptions.find((s) => s.name === "general")!;
  const other = ctx.account("member");
  const { id } = await sendMessage(ctx.client(other), { type: "stream", to: general.stream_id, topic: "all hands", content: "@**all** standup moves to 10:00" });
  await updateMessageFlags(ctx.client(), { messages: [id], op: "add", flag: "read" });
  const queue = await register(ctx.client(), { event_types: ["update_message_flags"] });
  await updateMessageFlags(ctx.client(), { messages: [id], op: "remove", flag: "read" });
  const { events } = await getEvents(ctx.client(), { queue_id: queue.queue_id!, last_event_id: -1, dont_block: true });
  const e = events.find((x) => x.type === "update_message_flags");
  expect(e).toMatchObject({ message_details: { [String(id)]: { mentioned: true } } });
  const fresh = await register(ctx.client());
  expect(fresh.unread_msgs?.mentions).toContain(id);
});
