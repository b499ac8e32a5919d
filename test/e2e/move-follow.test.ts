/**
 * Moved messages with the built binary in tmux against the demo server: the
 * open topic moved whole by another user (through the API) is followed to
 * its new channel and topic; a single message moved out of it leaves the
 * view where it is and says where it went; and moving the only message of a
 * topic yourself (e, Tab) shows it where it went, not the empty old topic.
 */
import { afterEach, beforeAll, describe, it } from "vitest";
import { apiAs, ensureBuilt, freePort, paneTitle, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
});

async function start(): Promise<{ site: string; s: TmuxSession }> {
  const port = await freePort();
  const s = (session = await startApp(["--demo", "--port", String(port)], { cols: 120, rows: 36 }));
  await s.waitFor(/connected/, { timeoutMs: 15_000 });
  return { site: `http://127.0.0.1:${port}`, s };
}

/** Channel ids by name. */
async function channels(call: Awaited<ReturnType<typeof apiAs>>): Promise<Record<string, number>> {
  const res = await call("GET", "streams");
  return Object.fromEntries((res.streams as Array<{ name: string; stream_id: number }>).map((c) => [c.name, c.stream_id]));
}

/** Opens a topic through the sidebar filter (Esc: from the Inbox to the sidebar). */
async function openTopic(s: TmuxSession, channel: string, topic: string): Promise<void> {
  await s.sendKeys("Escape", "q");
  await s.type(topic);
  await s.waitFor(topic);
  await s.sendKeys("Enter");
  await s.waitFor(paneTitle(`#${channel} > ${topic}`));
}

describe("moved messages in a 120×36 terminal", () => {
  it("follows the open topic when another user moves it whole, and stays when they move one message", async () => {
    const { site, s } = await start();
    const ben = await apiAs(site, "ben@lighthouse.test");
    const ids = await channels(ben);
    const send = async (content: string) => (await ben("POST", "messages", { type: "stream", to: String(ids["general"]), topic: "moving day", content })).id as number;
    const first = await send("boxes are packed");
    await send("the van comes at nine");
    await openTopic(s, "general", "moving day");
    await s.waitFor("the van comes at nine");

    // One message moves elsewhere: the view stays with the rest, and says where it went.
    await ben("PATCH", `messages/${first}`, { topic: "packing", propagate_mode: "change_one" });
    await s.waitFor("Ben Carter moved a message from here to #general > packing.");
    await s.waitForGone("boxes are packed");
    await s.waitFor(paneTitle("#general > moving day"));

    // The whole topic moves to another channel: the view follows it there.
    await s.sendKeys("j"); // clears the notice
    await s.waitForGone("Ben Carter moved");
    const rest = (await ben("GET", "messages", { anchor: "newest", num_before: "1", num_after: "0", narrow: JSON.stringify([{ operator: "channel", operand: ids["general"] }, { operator: "topic", operand: "moving day" }]) })).messages as Array<{ id: number }>;
    await ben("PATCH", `messages/${rest[0]!.id}`, { topic: "new office", stream_id: String(ids["design"]), propagate_mode: "change_all" });
    await s.waitFor(paneTitle("#design > new office"));
    await s.waitFor("Ben Carter moved this topic to #design > new office; showing it there.");
    await s.waitFor("the van comes at nine");
  });

  it("moving the only message of a topic yourself shows it where it went, not the empty topic", async () => {
    const { site, s } = await start();
    const maya = await apiAs(site, "maya@lighthouse.test");
    const ids = await channels(maya);
    await maya("POST", "messages", { type: "stream", to: String(ids["general"]), topic: "wrong topic", content: "this belongs elsewhere" });
    await openTopic(s, "general", "wrong topic");
    await s.waitFor("this belongs elsewhere");
    await s.sendKeys("e", "Tab");
    await s.waitFor("Move to which topic of #general?");
    await s.sendKeys("C-u");
    await s.type("right topic");
    await s.sendKeys("Enter");
    await s.waitFor("(moves only this message)");
    await s.sendKeys("Enter");
    await s.waitFor(paneTitle("#general > right topic"));
    await s.waitFor("Moved to #general > right topic; showing it there.");
    await s.waitFor("this belongs elsewhere");
    await s.waitForGone("No messages here yet.");
  });
});
