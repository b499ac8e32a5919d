/**
 * The other side of the "hostile content" benchmark, in its own process (so that none of its
 * work weighs on the client's measured event loop): the reference server (demo data, no rate
 * limit) behind the tests' fault proxy, and members who write. Prints one JSON line with the
 * addresses and the owner's credentials, then reads commands, one JSON line each, and answers
 * each with one line when it is done:
 * - `send`: a member posts a message; answers its id.
 * - `busy`: members post `perSecond` messages a second for `seconds`, spread over channels.
 * - `inject`: the client's next events poll gets a hostile answer (a compression bomb, an answer
 *   that trickles, or events made here); a member's status change ends the poll under way.
 */
import { createInterface } from "node:readline";
import { startServer } from "../src/server/index.js";
import { FaultProxy, type FaultAction } from "../test/fixtures/fault-proxy.js";
import { gzipBomb, mixedEvents } from "../test/fixtures/hostile-content.js";

const server = await startServer({ port: 0, host: "127.0.0.1", data: "demo", rateLimit: false });
const proxy = new FaultProxy(server.port);
await proxy.listen();
const owner = server.accounts[0]!;

type Api = (method: string, path: string, params?: Record<string, string>) => Promise<Record<string, unknown>>;
const apis = new Map<string, Api>();
function apiAs(email: string): Api {
  let api = apis.get(email);
  if (api) return api;
  const account = server.accounts.find((a) => a.email === email);
  if (!account) throw new Error(`no account ${email}`);
  const auth = "Basic " + Buffer.from(`${account.email}:${account.apiKey}`).toString("base64");
  api = async (method, path, params = {}) => {
    const body = new URLSearchParams(params);
    const url = method === "GET" ? `${server.url}/api/v1/${path}?${body}` : `${server.url}/api/v1/${path}`;
    const res = await fetch(url, { method, headers: { authorization: auth }, body: method === "GET" ? undefined : body });
    return (await res.json()) as Record<string, unknown>;
  };
  apis.set(email, api);
  return api;
}

const members = server.accounts.filter((a) => a.email !== owner.email && !a.email.startsWith("ci-bot")).map((a) => a.email);
let pokes = 0;
/** Something happens on the server (a member's status), so a poll under way is answered. */
const poke = () => apiAs(members[0]!)("POST", "users/me/status", { status_text: `busy ${++pokes}` });

const BODIES = [
  "Short one.",
  "A **bold** claim with `code` and a [link](https://example.com/docs) in it, long enough to wrap once the pane is narrow.",
  "- one\n- two\n- three",
  "> quoted\n\nand an answer to it :thumbs_up:",
  "```js\nconst x = 1;\nconsole.log(x);\n```",
  "@**Maya Okafor** can you look at this? It has been waiting since Monday.",
];

/** Who of the members may write in each channel (those subscribed to it). */
async function writersOf(channels: string[]): Promise<Map<string, string[]>> {
  const writers = new Map<string, string[]>(channels.map((c) => [c, []]));
  for (const email of members) {
    const res = await apiAs(email)("GET", "users/me/subscriptions");
    for (const sub of (res.subscriptions ?? []) as Array<{ name: string }>) writers.get(sub.name)?.push(email);
  }
  return writers;
}

async function busy(perSecond: number, seconds: number, channels: string[]): Promise<{ sent: number; late: number; failed: number }> {
  const total = perSecond * seconds;
  const writers = await writersOf(channels);
  let failed = 0;
  const start = performance.now();
  let sent = 0;
  let late = 0;
  const inFlight = new Set<Promise<unknown>>();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else if (wait < -100) late++;
    const channel = channels[i % channels.length]!;
    const who = writers.get(channel)!;
    const send = apiAs(who[i % who.length]!)("POST", "messages", {
      type: "stream",
      to: channel,
      topic: `busy ${i % 7}`,
      content: `${BODIES[i % BODIES.length]} (#${i})`,
    }).then((r) => {
      if (r.result === "success") sent++;
      else failed++;
    });
    inFlight.add(send);
    void send.finally(() => inFlight.delete(send));
  }
  await Promise.all(inFlight);
  return { sent, late, failed };
}

type Params = Record<string, unknown>;

/** The answer to send, and what it holds (for a batch: how many of its messages stay unread). */
function hostileAction(p: Params): FaultAction & { unread?: number } {
  switch (p.kind) {
    case "bomb":
      return { kind: "bytes", body: gzipBomb(Number(p.decodedBytes)), headers: { "content-encoding": "gzip" } };
    case "trickle":
      return { kind: "trickle", bytes: 1, everyMs: 1000 };
    case "batch": {
      const batch = mixedEvents(Number(p.count), p.at as Parameters<typeof mixedEvents>[1]);
      return { kind: "events", events: () => batch.events, unread: batch.unread };
    }
    case "reactions": {
      const users = p.users as number[];
      const events = Array.from({ length: Number(p.count) }, (_, i) => {
        const code = (0x1f300 + i).toString(16);
        return { type: "reaction", op: "add", message_id: p.messageId, user_id: users[i % users.length], emoji_name: `emoji_${code}`, emoji_code: code, reaction_type: "unicode_emoji" };
      });
      return { kind: "events", events: () => events };
    }
    case "poll": {
      const users = p.users as number[];
      const events: Array<Record<string, unknown>> = [];
      let id = 50_000_000;
      const sub = (sender: number, content: object) => ({ type: "submessage", msg_type: "widget", message_id: p.messageId, submessage_id: id++, sender_id: sender, content: JSON.stringify(content) });
      for (const u of users) for (let idx = 0; idx < 1000; idx++) events.push(sub(u, { type: "new_option", idx, option: `Option ${u}-${idx}` }));
      for (const [n, u] of users.entries()) for (let idx = 0; idx < 1000; idx += n + 1) events.push(sub(u, { type: "vote", key: `${users[0]},${idx}`, vote: 1 }));
      return { kind: "events", events: () => events };
    }
    case "names":
      return { kind: "events", events: () => p.events as Array<Record<string, unknown>> };
    default:
      throw new Error(`no such hostile answer: ${String(p.kind)}`);
  }
}

async function run(cmd: Params): Promise<unknown> {
  switch (cmd.cmd) {
    case "send": {
      const res = await apiAs(String(cmd.as ?? members[0]))("POST", "messages", { type: "stream", to: String(cmd.channel), topic: String(cmd.topic), content: String(cmd.content) });
      return { id: res.id };
    }
    case "busy":
      return busy(Number(cmd.perSecond), Number(cmd.seconds), cmd.channels as string[]);
    case "inject": {
      const action = hostileAction(cmd);
      proxy.inject({ method: "GET", path: "events", action });
      await poke();
      // A trickled answer is the server's own: the poll it holds must be answered too.
      if (cmd.kind === "trickle") setTimeout(() => void poke(), 500);
      return { injected: cmd.kind, unread: action.unread };
    }
    default:
      throw new Error(`no such command: ${String(cmd.cmd)}`);
  }
}

process.stdout.write(JSON.stringify({ url: proxy.url, serverUrl: server.url, email: owner.email, apiKey: owner.apiKey }) + "\n");
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const cmd = JSON.parse(line) as Params;
  run(cmd).then(
    (result) => process.stdout.write(JSON.stringify({ id: cmd.id, result }) + "\n"),
    (err: unknown) => process.stdout.write(JSON.stringify({ id: cmd.id, error: String(err) }) + "\n"),
  );
});
lines.on("close", () => void proxy.close().then(() => server.close()).then(() => process.exit(0)));
process.on("SIGTERM", () => void proxy.close().then(() => server.close()).then(() => process.exit(0)));
