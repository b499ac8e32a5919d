/**
 * Draft sync, presence and typing against the reference server over HTTP:
 * two sessions of the same user share a draft; presence reports in the
 * modern format; another user's queue sees our typing.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getEvents, register } from "../../src/api/routes/events.js";
import { getDrafts } from "../../src/api/routes/drafts.js";
import { draftKey } from "../../src/sync/draft-journal.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
let dirs: string[];
const sessions: AccountRuntime[] = [];

beforeEach(async () => {
  ctx = await withServer({ heartbeatMs: 200, longpollTimeoutSecs: 1 });
  dirs = [];
});

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.dispose();
  await ctx.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function session(opts: { draftDebounceMs?: number } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "termchat-live-"));
  dirs.push(dir);
  const s = await AccountRuntime.open({
    client: ctx.client(),
    account: { site: ctx.server.url, email: ctx.owner.email },
    stateDir: dir,
    machine: { backoff: { baseMs: 20, maxMs: 200 }, pollMarginMs: 500 },
    drafts: { debounceMs: opts.draftDebounceMs ?? 50 },
  });
  sessions.push(s);
  await s.machine.start();
  return s;
}

describe("drafts between two clients of one user", () => {
  it("a draft typed in one client reaches the server and the other client; sending clears it everywhere", async () => {
    const a = await session();
    const b = await session();
    const general = [...a.machine.store!.channels.values()].find((c) => c.name === "general")!;
    const target = { type: "stream" as const, channelId: general.stream_id, topic: "Draft sync" };
    const key = draftKey(target);

    a.composeOpened(target);
    a.composeChanged(target, "typed on the laptop");
    await eventually(() => b.journal.get(key) === "typed on the laptop", 5000);
    const server = await getDrafts(ctx.client());
    expect(server.drafts.filter((d) => d.content === "typed on the laptop")).toHaveLength(1);

    a.composeChanged(target, "typed on the laptop, edited");
    await eventually(() => b.journal.get(key) === "typed on the laptop, edited", 5000);
    expect((await getDrafts(ctx.client())).drafts.filter((d) => d.topic === "Draft sync")).toHaveLength(1);

    const entry = a.send(target, "typed on the laptop, edited");
    expect(await a.outbox.settled(entry.id)).toMatchObject({ kind: "sent" });
    await eventually(() => b.journal.get(key) === undefined, 5000);
    let left = -1;
    for (let i = 0; i < 50 && left !== 0; i++) {
      left = (await getDrafts(ctx.client())).drafts.filter((d) => d.topic === "Draft sync").length;
      if (left) await new Promise((r) => setTimeout(r, 50));
    }
    expect(left).toBe(0);
  });
});

describe("presence and typing", () => {
  it("reports presence in the modern format and applies last_update_id", async () => {
    const s = await session();
    await eventually(() => s.presence.reports >= 1, 5000);
    s.keyPressed();
    const fresh = await register(ctx.client(), { slim_presence: true, fetch_event_types: ["presence"] });
    const mine = fresh.presences?.[String(s.machine.store!.selfId)] as { active_timestamp?: number } | undefined;
    expect(mine?.active_timestamp).toBeGreaterThan(0);
  });

  it("another user sees our typing start and stop in a DM", async () => {
    const s = await session();
    const member = ctx.server.accounts.find((a) => a.role === "member")!;
    const theirs = await register(ctx.client(member), { event_types: ["typing"] });
    s.composeChanged({ type: "direct", userIds: [member.userId] }, "h");
    s.composeClosed();
    const seen: string[] = [];
    let last = theirs.last_event_id;
    for (let i = 0; i < 10 && seen.length < 2; i++) {
      const res = await getEvents(ctx.client(member), { queue_id: theirs.queue_id!, last_event_id: last }, { timeoutMs: 5000 });
      for (const e of res.events) {
        last = Math.max(last, e.id);
        if (e.type === "typing") seen.push(e.op);
      }
    }
    expect(seen).toEqual(["start", "stop"]);
  });
});
