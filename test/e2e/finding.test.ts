/**
 * Finding a conversation with the built binary in tmux against the reference
 * server's `large` organization (20,000 people, 2,000 channels): the jump
 * finder opens a topic in three keystrokes, a jump to a date lands on the
 * right day, and recent conversations follow a message as it arrives.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDay } from "../../src/render/time.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";
import { apiAs, ensureBuilt, paneTitle, startClientOn } from "./app.js";

let ctx: ServerFixture;
beforeAll(async () => {
  ensureBuilt();
  ctx = await withServer({ data: "large" });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

type Call = Awaited<ReturnType<typeof apiAs>>;
interface Msg {
  id: number;
  timestamp: number;
  subject: string;
  stream_id: number;
  display_recipient: string;
}

/** A channel the owner is subscribed to, by name and id (the first in the register's order that is not archived). */
async function ownersChannel(owner: Call, skip = 0): Promise<{ id: number; name: string }> {
  const reg = await owner("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
  const subs = (reg.subscriptions as Array<{ name: string; stream_id: number; is_archived?: boolean; is_muted?: boolean }>).filter((s) => !s.is_archived && !s.is_muted);
  const s = subs[skip]!;
  return { id: s.stream_id, name: s.name };
}

async function session(cols = 120, rows = 36) {
  const owner = ctx.owner;
  const client = await startClientOn(ctx.server.url, { email: owner.email, apiKey: owner.apiKey }, { cols, rows, env: { TZ: "UTC" } });
  await client.session.waitFor(/connected/, { timeoutMs: 60_000 });
  return client;
}

describe("finding on large", () => {
  it("the jump finder opens a topic in three keystrokes: Ctrl-P, ↓, Enter (the second most recent conversation)", async () => {
    const owner = await apiAs(ctx.server.url, ctx.owner.email);
    const ben = await apiAs(ctx.server.url, "ben@lighthouse.test");
    const channel = await ownersChannel(owner);
    const client = await session();
    try {
      // Two conversations become the newest: "finder target", then "finder newest".
      for (const topic of ["finder target", "finder newest"]) {
        const r = await ben("POST", "messages", { type: "stream", to: String(channel.id), topic, content: `hello from ${topic}` });
        expect(r.result).toBe("success");
      }
      await client.session.sendKeys("C-p");
      await client.session.waitFor(/Go to[\s\S]*finder newest[\s\S]*finder target/, { timeoutMs: 20_000 });
      await client.session.sendKeys("Down", "Enter");
      await client.session.waitFor(paneTitle(`#${channel.name} > finder target`), { timeoutMs: 20_000 });
      await client.session.waitFor("hello from finder target", { timeoutMs: 20_000 });
    } finally {
      await client.done();
    }
  }, 180_000);

  it("a jump to a date opens the topic at the first message of that day", async () => {
    const owner = await apiAs(ctx.server.url, ctx.owner.email);
    const channel = await ownersChannel(owner, 1);
    const res = await owner("GET", "messages", {
      anchor: "newest",
      num_before: "400",
      num_after: "0",
      narrow: JSON.stringify([{ operator: "channel", operand: channel.id }]),
      apply_markdown: "false",
    });
    const messages = res.messages as Msg[];
    // A topic with a message whose day (UTC) follows an earlier message's day: the jump lands on it.
    const day = (m: Msg) => new Date(m.timestamp * 1000).toISOString().slice(0, 10);
    const byTopic = new Map<string, Msg[]>();
    for (const m of messages) byTopic.set(m.subject, [...(byTopic.get(m.subject) ?? []), m]);
    let target: { topic: string; first: Msg } | undefined;
    for (const [topic, list] of byTopic) {
      list.sort((a, b) => a.id - b.id);
      const i = list.findIndex((m, k) => k > 0 && day(m) > day(list[k - 1]!));
      if (i > 0 && list.length >= 3) {
        target = { topic, first: list[i]! };
        break;
      }
    }
    expect(target, "a topic with messages on more than one day").toBeDefined();
    const { topic, first } = target!;
    const client = await session();
    try {
      await client.session.sendKeys("C-p");
      await client.session.waitFor("Go to", { timeoutMs: 20_000 });
      await client.session.type(`${channel.name}>${topic}`);
      await client.session.waitFor(new RegExp(`▌[^\\n]*${topic.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`), { timeoutMs: 20_000 });
      await client.session.sendKeys("Enter");
      await client.session.waitFor(paneTitle(`#${channel.name} > ${topic}`), { timeoutMs: 20_000 });
      await client.session.sendKeys("C-t");
      await client.session.waitFor("Jump to a date", { timeoutMs: 10_000 });
      await client.session.type(day(first));
      await client.session.sendKeys("Enter");
      // The selected message (its rows marked ▌) is the first of that day: its day's separator is part of it.
      const separator = formatDay(first.timestamp, { timeZone: "UTC" });
      const screen = await client.session.waitFor(new RegExp(`▌── ${separator} ──\n[^\n]*▌`), { timeoutMs: 30_000 });
      expect(screen.split("\n").filter((l) => l.includes("▌")).length).toBeGreaterThanOrEqual(2);
    } finally {
      await client.done();
    }
  }, 180_000);

  it("recent conversations list a topic at the top as soon as a message arrives in it", async () => {
    const owner = await apiAs(ctx.server.url, ctx.owner.email);
    const priya = await apiAs(ctx.server.url, "priya@lighthouse.test");
    const channel = await ownersChannel(owner, 2);
    const client = await session();
    try {
      await client.session.sendKeys("Escape", "b");
      await client.session.waitFor("Recent conversations", { timeoutMs: 20_000 });
      // The list is drawn right of the sidebar: its first row, under the header and the filter line, has the cursor.
      await client.session.waitFor(/Recent conversations[^\n]*\n[^\n]*\n[^\n]*▌#/, { timeoutMs: 30_000 });
      const r = await priya("POST", "messages", { type: "stream", to: String(channel.id), topic: "arrives live", content: "a new conversation" });
      expect(r.result).toBe("success");
      // The first row (under the header and the filter line) is the new topic, with Priya and one unread.
      await client.session.waitFor(/Recent conversations[^\n]*\n[^\n]*\n[^\n]*▌#[^\n]*arrives live[^\n]*Priya[^\n]* 1\n/, { timeoutMs: 20_000 });
    } finally {
      await client.done();
    }
  }, 180_000);
});
