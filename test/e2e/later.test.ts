/**
 * Time and personal lists through the built binary in tmux, against the
 * reference server (the --demo login, Maya): a message scheduled two seconds
 * ahead from the compose box arrives once and leaves the scheduled list; a
 * reminder set on a message arrives from the notification bot; message info
 * lists a reader once the reader's client (the API as Omar) marks the message
 * read; a saved snippet inserted from the compose box is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { apiAs, ensureBuilt, freePort, startApp, startClientOn, topicMessages } from "./app.js";
import type { TmuxSession } from "./tmux.js";

const TOPIC = "later e2e";
let session: TmuxSession | undefined;
let site = "";
let maya: Awaited<ReturnType<typeof apiAs>>;
let omar: Awaited<ReturnType<typeof apiAs>>;
let generalId = 0;

beforeAll(async () => {
  ensureBuilt();
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  session = await startApp(["--demo", "--port", String(port)], { cols: 120, rows: 32 });
  await session.waitFor(/connected/, { timeoutMs: 20_000 });
  maya = await apiAs(site, "maya@lighthouse.test");
  omar = await apiAs(site, "omar@lighthouse.test");
  const reg = await maya("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
  generalId = (reg.subscriptions as Array<{ name: string; stream_id: number }>).find((s) => s.name === "general")!.stream_id;
}, 60_000);
afterAll(async () => {
  await session?.kill();
  session = undefined;
});

/** Maya posts to general > TOPIC through the API; the app opens the topic with that message selected. */
async function openTopicAt(content: string): Promise<number> {
  const s = session!;
  const posted = await maya("POST", "messages", { type: "stream", to: String(generalId), topic: TOPIC, content });
  expect(posted.result).toBe("success");
  await s.sendKeys("Escape");
  await s.sendKeys("a"); // the combined feed
  await s.waitFor(/Combined feed\s*\n/);
  await s.sendKeys("G"); // follow the newest message: this one, once it is in
  await s.waitFor(content);
  await s.sendKeys("G");
  await s.sendKeys("S"); // its topic, opened at it
  await s.waitFor(new RegExp(`#general > ${TOPIC} *\n(.*\n)*.*${content}`));
  await s.sendKeys("G");
  return posted.id as number;
}

/** Polls `check` (bounded in tries and time) until it holds. */
async function eventually(check: () => Promise<boolean>, what: string, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never happened: ${what}`);
}

describe("time and personal lists in tmux", () => {
  it("a message scheduled two seconds ahead arrives once and leaves the scheduled list", async () => {
    const s = session!;
    await openTopicAt(`before the scheduled one ${Date.now() % 100000}`);
    await s.sendKeys("r");
    await s.waitFor("Enter send");
    const text = `scheduled hello ${Date.now() % 100000}`;
    await s.type(text);
    await s.waitFor(text);
    await s.sendKeys("C-s");
    await s.waitFor("Send later");
    await s.sendKeys("Tab");
    await s.type("in 2 seconds");
    await s.waitFor("→");
    await s.sendKeys("Enter");
    await s.waitFor("Scheduled for");
    // The server has it, then sends it: exactly once, to the topic; the list is empty again.
    await eventually(async () => (await topicMessages(site, "omar@lighthouse.test", "general", TOPIC)).some((m) => m.content === text), "the scheduled message delivered");
    const list = await maya("GET", "scheduled_messages");
    expect(list.scheduled_messages).toEqual([]);
    const copies = (await topicMessages(site, "omar@lighthouse.test", "general", TOPIC)).filter((m) => m.content === text);
    expect(copies).toHaveLength(1);
    expect(copies[0]!.sender_email).toBe("maya@lighthouse.test");
    await s.waitFor(text); // shown in the topic
    await s.sendKeys("W");
    await s.waitFor("Scheduled messages (0)");
    await s.waitFor("Nothing scheduled");
    await s.sendKeys("Escape");
    await s.waitForGone("Scheduled messages (0)");
  }, 90_000);

  it("a reminder set on a message arrives from the notification bot", async () => {
    const s = session!;
    const content = `remind me of this ${Date.now() % 100000}`;
    await openTopicAt(content);
    await s.sendKeys("!");
    await s.waitFor("Remind me about this message");
    await s.sendKeys("Tab");
    await s.type("in 2 seconds");
    await s.waitFor("→");
    await s.sendKeys("Enter");
    await s.waitFor("Reminder set for");
    // At its time the notification bot sends it as a direct message quoting the message; it leaves the list.
    const fromBot = async () => {
      const dms = await maya("GET", "messages", { anchor: "newest", num_before: "5", num_after: "0", narrow: JSON.stringify([{ operator: "is", operand: "dm" }]), apply_markdown: "false" });
      return (dms.messages as Array<{ sender_full_name: string; content: string }>).filter((m) => m.sender_full_name === "Notification Bot" && m.content.includes(content));
    };
    await eventually(async () => (await fromBot()).length > 0, "the reminder delivered");
    expect(await fromBot()).toHaveLength(1);
    const reminders = await maya("GET", "reminders");
    expect(reminders.reminders).toEqual([]);
    // The app shows it among the direct messages, from the bot.
    await s.sendKeys("P");
    await s.waitFor(/Notification Bot +(Nov \d+ )?\d{1,2}:\d{2}/);
    await s.waitFor(content);
  }, 90_000);

  it("message info lists a reader once the reader's client marks the message read", async () => {
    const s = session!;
    const content = `who read this ${Date.now() % 100000}`;
    const id = await openTopicAt(content);
    const marked = await omar("POST", "messages/flags", { messages: JSON.stringify([id]), op: "add", flag: "read" });
    expect(marked.result).toBe("success");
    await s.sendKeys("i");
    await s.waitFor("Read by");
    await s.waitFor("1 person: Omar Haddad");
    await s.sendKeys("Escape");
    await s.waitForGone("Read by");
  }, 90_000);

  it("a saved snippet inserted from the compose box is sent", async () => {
    const s = session!;
    const snippet = `Welcome aboard, from a snippet ${Date.now() % 100000}`;
    const made = await maya("POST", "saved_snippets", { title: "E2E welcome", content: snippet });
    expect(made.result).toBe("success");
    await openTopicAt(`before the snippet ${Date.now() % 100000}`);
    await s.sendKeys("r");
    await s.waitFor("Enter send");
    await s.sendKeys("C-n");
    await s.waitFor("Saved snippets");
    await s.type("e2e wel");
    await s.waitFor("Saved snippets (1)");
    await s.sendKeys("Enter");
    await s.waitFor("Inserted the snippet E2E welcome");
    await s.sendKeys("Enter"); // send
    await eventually(async () => (await topicMessages(site, "omar@lighthouse.test", "general", TOPIC)).some((m) => m.content === snippet), "the snippet sent");
  }, 90_000);
});

describe("scheduled messages across a restart", () => {
  it("a message scheduled for tomorrow is still listed by the client started next", async () => {
    const server = await startServer({ port: 0, host: "127.0.0.1" });
    const owner = server.accounts.find((a) => a.email === "maya@lighthouse.test")!;
    let client: Awaited<ReturnType<typeof startClientOn>> | undefined;
    try {
      client = await startClientOn(server.url, owner, { cols: 120, rows: 32 });
      const s = client.session;
      await s.waitFor(/connected/, { timeoutMs: 20_000 });
      await s.sendKeys("x"); // a direct message: pick Omar
      await s.waitFor(/Write to|Direct message/);
      await s.type("Omar");
      await s.waitFor("Omar Haddad");
      await s.sendKeys("Enter");
      await s.waitFor("Enter send");
      const text = `see you tomorrow ${Date.now() % 100000}`;
      await s.type(text);
      await s.waitFor(text);
      await s.sendKeys("C-s");
      await s.waitFor("Tomorrow 9:00");
      await s.sendKeys("Enter"); // the first choice
      await s.waitFor("Scheduled for");
      await client.done();
      client = undefined;

      client = await startClientOn(server.url, owner, { cols: 120, rows: 32 });
      await client.session.waitFor(/connected/, { timeoutMs: 20_000 });
      await client.session.sendKeys("W");
      await client.session.waitFor("Scheduled messages (1)");
      await client.session.waitFor(/09:00 · Omar Haddad +scheduled/);
      await client.session.waitFor(text);
    } finally {
      await client?.done();
      await server.close();
    }
  }, 90_000);
});
