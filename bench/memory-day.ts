/**
 * Memory over a working day, in the model and the renderer: the store built from the data set's
 * register, then 100,000 events through the event path (new messages, read and starred flags,
 * reactions) while narrows are opened and left (each shown narrow gets a fetched batch of
 * messages of varied length, rendered as the message pane would). Prints the RSS and heap,
 * after a full collection, before and after the day, and what stays loaded.
 * BENCH_DAY_BUDGET=<bytes> sets the message budget (Infinity: no budget, to compare).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { encodeParams } from "../src/api/http.js";
import type { Message } from "../src/api/schemas/common.js";
import { parseEvent } from "../src/api/schemas/events.js";
import { registerResponseSchema } from "../src/api/schemas/register.js";
import { registerRequest } from "../src/api/register-request.js";
import type { Narrow } from "../src/model/narrow.js";
import { Store } from "../src/model/store.js";
import { loadMarkdown, renderMarkdown, type RenderContext } from "../src/render/markdown.js";
import { printFigure, startBenchServer, wholeRegisterParams } from "./util.js";

const data = process.argv[2] ?? "large";
const EVENTS = 100_000;
const mb = (n: number): string => (n / 1048576).toFixed(1);
async function settled(): Promise<{ rss: number; heap: number }> {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  await sleep(1500); // freed pages go back to the system on a background thread
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

const { url, email, apiKey, stop } = await startBenchServer(data);
const auth = "Basic " + Buffer.from(`${email}:${apiKey}`).toString("base64");
const res = await fetch(`${url}/api/v1/register`, {
  method: "POST",
  headers: { authorization: auth },
  body: encodeParams(registerRequest(wholeRegisterParams()).params),
});
// Parsed as the client parses it (a section at a time, users in the store's form).
const store = new Store(registerResponseSchema.parse(registerRequest(wholeRegisterParams()).parseBytes(Buffer.from(await res.arrayBuffer()))));
await stop();
if (process.env.BENCH_DAY_BUDGET) store.messageBudget.setBudget(Number(process.env.BENCH_DAY_BUDGET));
await loadMarkdown();
const ctx: RenderContext = {
  selfUserId: store.selfId,
  userName: (id) => store.users.get(id)?.full_name,
  isSelfName: () => false,
  channelName: (id) => store.channels.get(id)?.name,
  emptyTopicName: "general chat",
  color: true,
};
const channels = [...store.channels.keys()];
const users = [...store.users.keys()];
const words = "the quick brown fox jumps over **lazy** dogs while `code` and [links](https://example.test/x) flow".split(" ");
const text = (n: number, seed: number): string => {
  let s = "";
  for (let i = 0; s.length < n; i++) s += (i % 40 === 39 ? "\n\n" : " ") + words[(seed + i * 7) % words.length];
  return s + ` #${seed}`;
};
const message = (id: number, channelId: number, seed: number): Message =>
  ({
    id, sender_id: users[seed % users.length]!, sender_full_name: `Person ${seed % 997}`, sender_email: `p${seed % 997}@example.test`,
    type: "stream", display_recipient: "c", stream_id: channelId, subject: `topic ${seed % 50}`, timestamp: 1_763_600_000 + seed,
    content: text(40 + ((seed * 131) % 1500), seed), flags: [], reactions: [], is_me_message: false, recipient_id: channelId,
    avatar_url: null, client: "bench", content_type: "text/x-markdown", submessages: [], topic_links: [], sender_realm_str: "x",
  }) as unknown as Message;

const before = await settled();
printFigure("RSS / heap before the day (store built, Markdown loaded)", `${mb(before.rss)} / ${mb(before.heap)}`, "MiB");

let nextId = 60_000_000;
let fetchedId = 10_000_000;
let eventId = 0;
const recent: number[] = [];
let narrowsOpened = 0;
for (let i = 0; i < EVENTS; i++) {
  const kind = i % 10;
  const channelId = channels[(i * 13) % channels.length]!;
  let raw: Record<string, unknown>;
  if (kind < 5) {
    const m = message(nextId++, channelId, i);
    recent.push(m.id);
    if (recent.length > 500) recent.shift();
    raw = { type: "message", id: eventId++, flags: [], message: m };
  } else if (kind < 7) {
    raw = { type: "update_message_flags", id: eventId++, op: "add", operation: "add", flag: kind === 5 ? "read" : "starred", messages: recent.slice(-3), all: false };
  } else {
    const id = recent[(i * 31) % recent.length] ?? 1;
    raw = { type: "reaction", id: eventId++, op: "add", message_id: id, user_id: users[i % users.length], emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" };
  }
  // Events arrive as JSON text: their strings are flat, as JSON.parse makes them (not the ropes built above).
  store.apply(parseEvent(JSON.parse(JSON.stringify(raw))));
  if (i % 1000 === 0) {
    // A narrow opened: shown, a batch fetched, the screenful rendered; the one before is left.
    const narrow: Narrow = { kind: "channel", channelId: channels[narrowsOpened++ % channels.length]! };
    store.showNarrow(narrow);
    const batch = JSON.parse(JSON.stringify(Array.from({ length: 100 }, (_, k) => message(fetchedId++, narrow.channelId, i + k)))) as Message[];
    store.addFetched(narrow, batch, { foundOldest: false, foundNewest: true, direction: "around" });
    for (const m of batch.slice(-30)) renderMarkdown(m.content, ctx, 100);
  }
  if (kind < 5 && i % 7 === 0) renderMarkdown(text(40 + (i % 300), i), ctx, 100); // live messages in the open narrow
}
const after = await settled();
printFigure(`RSS / heap after the day (${EVENTS.toLocaleString("en")} events, ${narrowsOpened} narrows opened)`, `${mb(after.rss)} / ${mb(after.heap)}`, "MiB");
printFigure("  growth over the day: RSS / heap", `${mb(after.rss - before.rss)} / ${mb(after.heap - before.heap)}`, "MiB (target RSS ≤ 30)");
printFigure("  messages held / lists held", `${store.messages.byId.size} / ${store.messages.lists.size}`, "");
