/**
 * Read marking in the real App against the reference server: the setting
 * from the palette (the server keeps it, the client follows its event, and
 * what then arrives in the open topic is no longer marked read); a message
 * made unread again, or a rebuild after the event queue was lost, does not
 * have it marked again behind the reader's back.
 */
import { afterEach, expect, it } from "vitest";
import { deleteQueue } from "../../src/api/routes/events.js";
import { markAllAsRead } from "../../src/api/routes/message-flags.js";
import { sendMessage, updateMessageFlags } from "../../src/api/routes/messages.js";
import { markReadPolicy } from "../../src/model/read-policy.js";
import { KEY, channelId, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/**
 * The App with nothing unread, recording the ids the screen asks to mark read from then on;
 * `say` posts a message (as another user) in a topic of #general, and waits until the client has it unread.
 */
async function start(topic: string) {
  app = await renderApp();
  await app.waitFor("connected");
  const a = app;
  const store = () => a.machine.store!;
  const general = channelId(a, "general");
  const asked: number[] = [];
  const markRead = a.commands.markRead.bind(a.commands);
  a.commands.markRead = (ids) => {
    asked.push(...ids);
    markRead(ids);
  };
  expect((await markAllAsRead(a.ctx.client())).result).toBe("success");
  await a.until(() => store().unreads.size === 0, "everything read");
  const say = async (content: string) => {
    const { id } = await sendMessage(a.ctx.client("omar"), { type: "stream", to: general, topic, content });
    await a.until(() => store().unreads.has(id), "the new message unread");
    return id;
  };
  return { a, store, asked, say };
}

it("changes when viewed messages are marked read; the setting is the server's, and the client follows it", async () => {
  const { a, store, asked, say } = await start("read setting");
  // As the service's default has it: the topic opened shows its unread message, and it is marked read.
  expect(markReadPolicy(store().personal.settings)).toBe("always");
  const first = await say("seen and read");
  await a.press("n");
  await a.waitFor("#general > read setting");
  await a.until(() => asked.includes(first), "the message on screen marked read");

  // Never, from the palette.
  await a.press("\u000b"); // Ctrl-K
  await a.waitFor("type to filter");
  for (const ch of "read as you view") await a.press(ch);
  await a.waitFor(/▌ Mark messages read as you view them…\s+now: always/);
  await a.press(KEY.enter);
  await a.waitFor("Search results, mentions and starred messages never are.");
  await a.press(" ", " "); // always → only in a topic or conversation → never
  await a.waitFor("never (M marks read)");
  await a.press(KEY.enter);
  await a.waitFor("Messages viewed are marked read: never");
  await a.until(() => markReadPolicy(store().personal.settings) === "never", "the user_settings event");

  // What arrives in the open topic now is on screen, and stays unread.
  const second = await say("seen but not read");
  await a.waitFor("seen but not read");
  expect(asked).not.toContain(second);
  expect(store().unreads.has(second)).toBe(true);
});

it("a message on screen made unread again elsewhere, or a rebuild, does not have it marked again", async () => {
  const { a, store, asked, say } = await start("read again");
  const id = await say("read, then unread");
  await a.press("n");
  await a.waitFor("#general > read again");
  await a.until(() => !store().unreads.has(id), "read on the server and back");
  expect(asked).toEqual([id]);

  // Elsewhere, the reader marks it unread to come back to it; it stays so while on screen.
  await updateMessageFlags(a.ctx.client(), { messages: [id], op: "remove", flag: "read" });
  await a.until(() => store().unreads.has(id), "unread again");
  // The event queue is lost: the client registers again and builds a new store in which it is unread.
  const old = store();
  await deleteQueue(a.ctx.client(), old.queueId!);
  await a.until(() => a.machine.store !== old && a.machine.state.kind === "live", "a new store from a new register");
  await a.waitFor("read, then unread");
  expect(store().unreads.has(id)).toBe(true);
  expect(asked).toEqual([id]);
});
