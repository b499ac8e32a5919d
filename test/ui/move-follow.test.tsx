/**
 * A topic moved by another user while a reply to it is being written (the
 * real App on the in-process demo server): the view follows the topic, the
 * compose box now writes to the new topic with its text kept, and the reply
 * is sent there.
 */
import { afterEach, expect, it } from "vitest";
import { getMessages, sendMessage, updateMessage } from "../../src/api/routes/messages.js";
import { KEY, channelId, renderApp, type AppHarness } from "./render-app.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

it("a reply being written to a topic that moves on goes with it, its text kept", async () => {
  app = await renderApp();
  await app.waitFor("connected");
  const general = channelId(app, "general");
  const ben = app.ctx.client("ben");
  const sent = await sendMessage(ben, { type: "stream", to: general, topic: "old name", content: "what shall we call this" });
  await app.press("q", ..."old name", KEY.enter);
  await app.waitFor("what shall we call this");
  await app.press("r", ..."half written");
  await app.waitFor(/#general > old name[^\n]*\n[^\n]*half written/);

  await updateMessage(ben, sent.id, { topic: "new name", propagate_mode: "change_all" });
  await app.waitFor(/#general > new name[^\n]*\n[^\n]*half written/);
  await app.waitFor("Ben Carter moved this topic to #general > new name; showing it there.");
  await app.press(" and sent", KEY.enter);
  await app.until(() => !app!.frame().includes("Enter send"), "the box to close");
  const inNewTopic = async () =>
    (
      await getMessages(app!.ctx.client("omar"), {
        anchor: "newest",
        num_before: 5,
        num_after: 0,
        narrow: [
          { operator: "channel", operand: general },
          { operator: "topic", operand: "new name" },
        ] as never,
        apply_markdown: false,
      })
    ).messages.map((m) => m.content);
  let contents = await inNewTopic();
  for (let i = 0; i < 100 && !contents.includes("half written and sent"); i++) {
    await new Promise((r) => setTimeout(r, 50));
    contents = await inNewTopic();
  }
  expect(contents).toContain("half written and sent");
  // The old topic keeps no draft of it.
  expect(app.runtime.journal.all().map((e) => e.text)).not.toContain("half written and sent");
  expect(app.runtime.journal.all().some((e) => e.text === "half written")).toBe(false);
});
