// The demo data set: its size and variety, and that it is the same on every start.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, writeZuliprcs, type RunningServer } from "../../src/server/index.js";
import { ConformanceRecorder } from "../fixtures/conformance.js";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Json = Record<string, any>;

let server: RunningServer;

async function api(path: string, params: Record<string, unknown>, method = "GET", who = server.accounts[0]!, on = server) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  const auth = "Basic " + Buffer.from(`${who.email}:${who.apiKey}`).toString("base64");
  const get = method === "GET";
  const res = await fetch(`${on.url}/api/v1${path}${get ? `?${form}` : ""}`, {
    method,
    headers: { Authorization: auth, ...(get ? {} : { "Content-Type": "application/x-www-form-urlencoded" }) },
    body: get ? undefined : form.toString(),
    signal: AbortSignal.timeout(5000),
  });
  return (await res.json()) as Json;
}

/** Every message of every account (the union of their histories), by id. */
async function allMessages(on: RunningServer): Promise<Map<number, Json>> {
  const out = new Map<number, Json>();
  for (const who of on.accounts) {
    const body = await api("/messages", { anchor: "oldest", num_before: 0, num_after: 5000, apply_markdown: false, allow_empty_topic_name: true }, "GET", who, on);
    for (const m of body["messages"]) out.set(m.id, m);
  }
  return out;
}

// Every success body of both servers must fit the public API description.
const recorder = new ConformanceRecorder();
beforeAll(async () => {
  server = await startServer(recorder.options({ host: "127.0.0.1", port: 0 }));
});
afterAll(async () => {
  await server.close();
  expect(recorder.count).toBeGreaterThan(0);
  expect(recorder.problems()).toEqual([]);
});

describe("demo data set", () => {
  it("has users of every role, a bot and a deactivated user; the owner first", async () => {
    const roles = new Set(server.accounts.map((a) => a.role));
    for (const r of ["owner", "admin", "moderator", "member", "guest", "bot"]) expect(roles).toContain(r);
    expect(server.accounts.filter((a) => a.role !== "bot").length).toBeGreaterThanOrEqual(8);
    expect(server.accounts[0]!.role).toBe("owner");
    for (const a of server.accounts) {
      expect(a.apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(a.password).toBe("termchat-demo");
      expect(a.email).toMatch(/@lighthouse\.test$/);
    }
    const reg = await api("/register", { fetch_event_types: ["realm_user"] }, "POST");
    expect(reg["realm_non_active_users"]).toHaveLength(1);
    expect(reg["realm_users"].some((u: Json) => u.is_bot && u.bot_type === 1)).toBe(true);
  });

  it("has channels of every kind in two folders", async () => {
    const reg = await api("/register", { fetch_event_types: ["subscription", "channel_folder"], client_capabilities: { archived_channels: true } }, "POST");
    const channels: Json[] = [...reg["subscriptions"], ...reg["unsubscribed"], ...reg["never_subscribed"]];
    expect(channels.length).toBeGreaterThanOrEqual(6);
    expect(channels.filter((c) => !c.invite_only && !c.is_web_public && !c.is_archived).length).toBeGreaterThanOrEqual(3);
    expect(channels.some((c) => c.invite_only)).toBe(true);
    expect(channels.some((c) => c.is_web_public)).toBe(true);
    expect(channels.some((c) => c.is_archived)).toBe(true);
    expect(reg["channel_folders"]).toHaveLength(2);
    for (const f of reg["channel_folders"]) expect(channels.filter((c) => c.folder_id === f.id).length).toBeGreaterThanOrEqual(1);
    const subs: Json[] = reg["subscriptions"];
    expect(subs.filter((s) => s.pin_to_top)).toHaveLength(1);
    expect(subs.filter((s) => s.is_muted)).toHaveLength(1);
    expect(subs.length).toBeGreaterThanOrEqual(channels.length - 2);
  });

  it("has at least 300 messages over at least 20 topics, with the dialect's features", async () => {
    const messages = [...(await allMessages(server)).values()];
    expect(messages.length).toBeGreaterThanOrEqual(300);
    const topics = new Set(messages.filter((m) => m.type === "stream").map((m) => `${m.stream_id}/${m.subject}`));
    expect(topics.size).toBeGreaterThanOrEqual(20);
    expect(messages.some((m) => m.type === "stream" && m.subject === "")).toBe(true);
    expect(messages.filter((m) => m.subject.startsWith("✔ ")).length).toBeGreaterThan(0);
    const has = (re: RegExp) => messages.some((m) => re.test(m.content));
    expect(has(/```(python|typescript|sql|bash)\n/)).toBe(true);
    expect(has(/```quote\n/)).toBe(true);
    expect(has(/^> /m)).toBe(true);
    expect(has(/@\*\*[^*]+\*\*/)).toBe(true);
    expect(has(/:[a-z_]+:/)).toBe(true);
    expect(has(/[\u{1F300}-\u{1FAFF}]/u)).toBe(true);
    expect(messages.some((m) => m.is_me_message)).toBe(true);
    expect(messages.some((m) => m.edit_history && m.last_edit_timestamp)).toBe(true);
    const reacted = messages.filter((m) => m.reactions.length > 0);
    expect(reacted.length).toBeGreaterThanOrEqual(5);
    expect(reacted.some((m) => new Set(m.reactions.map((r: Json) => r.user_id)).size >= 3)).toBe(true);
    expect(messages.some((m) => m.type === "private" && m.display_recipient.length >= 3)).toBe(true);
    const ids = messages.map((m) => m.id).sort((a, b) => a - b);
    const byId = new Map(messages.map((m) => [m.id, m]));
    for (let i = 1; i < ids.length; i++) expect(byId.get(ids[i]!)!.timestamp).toBeGreaterThanOrEqual(byId.get(ids[i - 1]!)!.timestamp);
    const end = Date.UTC(2026, 10, 20, 17) / 1000;
    expect(byId.get(ids[ids.length - 1]!)!.timestamp).toBeLessThanOrEqual(end);
    expect(byId.get(ids[0]!)!.timestamp).toBeGreaterThanOrEqual(end - 11 * 86400);
  });

  it("is the same on every start", async () => {
    const second = await startServer(recorder.options({ host: "127.0.0.1", port: 0 }));
    try {
      expect(second.accounts).toEqual(server.accounts);
      const [a, b] = [await allMessages(server), await allMessages(second)];
      expect([...b.values()]).toEqual([...a.values()]);
    } finally {
      await second.close();
    }
  });

  it("writes one private zuliprc per account", async () => {
    const dir = join(await mkdtemp(join(tmpdir(), "termchat-server-")), "rc");
    try {
      const paths = await writeZuliprcs(dir, server);
      expect(paths).toHaveLength(server.accounts.length);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect((await stat(paths[0]!)).mode & 0o777).toBe(0o600);
      const owner = server.accounts[0]!;
      expect(paths[0]).toMatch(/maya\.zuliprc$/);
      expect(await readFile(paths[0]!, "utf8")).toBe(`[api]\nemail=${owner.email}\nkey=${owner.apiKey}\nsite=${server.url}\n`);
    } finally {
      await rm(join(dir, ".."), { recursive: true, force: true });
    }
  });
});
