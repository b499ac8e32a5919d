/**
 * The mark-as-read setting from the palette, with the real App against the
 * reference server: the server keeps the new value, the client follows its
 * event, and what then arrives in the open topic is no longer marked read.
 */
import { afterEach, expect, it } from "vitest";
import { markAllAsRead } from "../../src/api/routes/message-flags.js";
import { sendMessage } from "../../src/api/routes/messages.js";
import { markReadPolicy } from "../../src/model/read-policy.js";
import { KEY, channelId, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

it("changes when viewed messages are marked read; the setting is the server's, and the client follows it", async () => {
  app = await renderApp();
  await app.waitFor("connected");
  const a = app;
  const store = () => a.machine.store!;
  const general = channelId(a, "general");
  const say = (content: string) => sendMessage(a.ctx.client("omar"), { type: "stream", to: general, topic: "read setting", content });
  const asked: number[] = [];
  const markRead = a.commands.markRead.bind(a.commands);
  a.commands.markRead = (ids) => {
    asked.push(...ids);
    markRead(ids);
  };

  // As the service's default has it: the topic opened shows its unread message, and it is marked read.
  expect(markReadPolicy(store().personal.settings)).toBe("always");
  expect((await markAllAsRead(a.ctx.client())).result).toBe("success");
  await a.until(() => store().unreads.size === 0, "everything read");
  const first = (await say("seen and read")).id;
  await a.until(() => store().unreads.has(first), "the new message unread");
  await a.press("n");
  await a.waitFor("#general > read setting");
  await a.until(() => asked.includes(first), "the message on screen marked read");

  // Never, from the palette.
  await a.press("\u000b"); // Ctrl-K
  await a.waitFor("type to filter");
  for (const ch of "read as you view") await a.press(ch);
  await a.waitFor(/▸ Mark messages read as you view them…\s+now: always/);
  await a.press(KEY.enter);
  await a.waitFor("Search results, mentions and starred messages never are.");
  await a.press(" ", " "); // always → only in a topic or conversation → never
  await a.waitFor("never (M marks read)");
  await a.press(KEY.enter);
  await a.waitFor("Messages viewed are marked read: never");
  await a.until(() => markReadPolicy(store().personal.settings) === "never", "the user_settings event");

  // What arrives in the open topic now is on screen, and stays unread.
  const second = (await say("seen but not read")).id;
  await a.waitFor("seen but not read");
  expect(asked).not.toContain(second);
  expect(store().unreads.has(second)).toBe(true);
});
