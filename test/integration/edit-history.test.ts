// A message's edit history from the reference server, read as steps with
// word diffs and moves: content edits, a topic move, a channel move, and
// resolving the topic each leave the record the spec describes.

import { describe, expect, it } from "vitest";
import { getMessage, getMessageHistory, sendMessage, updateMessage } from "../../src/api/routes/messages.js";
import { getChannelId } from "../../src/api/routes/channels.js";
import { editSteps } from "../../src/model/edit-history.js";
import { useServer } from "./api-operations-kit.js";

const server = useServer();

describe("edit history", () => {
  it("records each content edit and move; the steps show the diffs and where the message went", async () => {
    const ctx = server();
    const lena = ctx.client("lena");
    const maya = ctx.client("maya");
    const general = (await getChannelId(maya, "general")).stream_id;
    const engineering = (await getChannelId(maya, "engineering")).stream_id;
    const { id } = await sendMessage(lena, { type: "stream", to: general, topic: "history lab", content: "Deploy at noon" });
    await updateMessage(lena, id, { content: "Deploy at 14:00, after the review" });
    await updateMessage(maya, id, { topic: "deploys", propagate_mode: "change_one" });
    await updateMessage(maya, id, { stream_id: engineering, propagate_mode: "change_one" });
    await updateMessage(maya, id, { topic: "✔ deploys", propagate_mode: "change_all" });
    await updateMessage(lena, id, { content: "Deployed at 14:00, after the review" });

    const { message_history: history } = await getMessageHistory(maya, id, { allow_empty_topic_name: true });
    expect(history).toHaveLength(6);
    const { message } = await getMessage(maya, id);
    const lenaId = message.sender_id;
    const steps = editSteps(history, message.stream_id);
    expect(steps.map((s) => [s.userId === lenaId ? "lena" : "maya", s.channelId === general ? "general" : "engineering", s.topic])).toEqual([
      ["lena", "general", "history lab"],
      ["lena", "general", "history lab"],
      ["maya", "general", "deploys"],
      ["maya", "engineering", "deploys"],
      ["maya", "engineering", "✔ deploys"],
      ["lena", "engineering", "✔ deploys"],
    ]);
    expect(steps[0]).toMatchObject({ content: "Deploy at noon" });
    expect(steps[1]!.diff!.runs).toEqual([
      { op: "equal", text: "Deploy at " },
      { op: "delete", text: "noon" },
      { op: "insert", text: "14:00, after the review" },
    ]);
    expect(steps[2]!.move).toEqual({ kind: "move", from: { channelId: general, topic: "history lab" }, to: { channelId: general, topic: "deploys" } });
    expect(steps[3]!.move).toEqual({ kind: "move", from: { channelId: general, topic: "deploys" }, to: { channelId: engineering, topic: "deploys" } });
    expect(steps[4]!.move).toMatchObject({ kind: "resolve" });
    expect(steps[5]!.diff!.runs).toEqual([
      { op: "delete", text: "Deploy" },
      { op: "insert", text: "Deployed" },
      { op: "equal", text: " at 14:00, after the review" },
    ]);
    for (const s of steps.slice(1)) expect(s.timestamp).toBeGreaterThanOrEqual(steps[0]!.timestamp);
  });

  it("a message never edited has its original alone", async () => {
    const ctx = server();
    const { id } = await sendMessage(ctx.client("lena"), { type: "direct", to: [ctx.owner.userId], content: "just this" });
    const { message_history: history } = await getMessageHistory(ctx.client(), id);
    expect(editSteps(history, undefined)).toMatchObject([{ index: 0, content: "just this", channelId: undefined }]);
  });
});
