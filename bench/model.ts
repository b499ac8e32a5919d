/**
 * Model figures on a data set: register → store build time against a bare
 * JSON.parse of the same body, heap after build, and events applied per
 * second for a mixed stream of 100,000 events; the Inbox's and the sidebar's rows.
 */
import { encodeParams } from "../src/api/http.js";
import { registerResponseSchema } from "../src/api/schemas/register.js";
import { registerRequest } from "../src/api/register-request.js";
import { parseEvent, type ServerEvent } from "../src/api/schemas/events.js";
import { inbox } from "../src/model/selectors-views.js";
import { Store } from "../src/model/store.js";
import { clientRegisterParams } from "../src/sync/register-params.js";
import { buildSidebarRows } from "../src/ui/sidebar-rows.js";
import { median, printFigure, startBenchServer, wholeRegisterParams } from "./util.js";

const { url, email, apiKey, seedMs, stop } = await startBenchServer(process.argv[2] ?? "large");
const auth = "Basic " + Buffer.from(`${email}:${apiKey}`).toString("base64");
const res = await fetch(`${url}/api/v1/register`, {
  method: "POST",
  headers: { authorization: auth },
  body: encodeParams(registerRequest(wholeRegisterParams()).params), // the client's register with the user list it fetches apart
});
const body = await res.text();
printFigure("data set seed time", seedMs, "ms");
printFigure("register body", (body.length / 1e6).toFixed(1), "MB");
{
  // As at a start: the register the client asks for (no users), checked for the first time in
  // the process, when the schemas' code runs cold. Measured before anything else is checked.
  const started = await fetch(`${url}/api/v1/register`, { method: "POST", headers: { authorization: auth }, body: encodeParams(registerRequest(clientRegisterParams()).params) });
  const parsed: unknown = JSON.parse(await started.text());
  const t0 = performance.now();
  registerResponseSchema.parse(parsed);
  printFigure("the client's register (no users) checked, the first check in the process (as at a start)", (performance.now() - t0).toFixed(1), "ms");
}

const parseTimes: number[] = [];
const buildTimes: number[] = [];
const partsTimes: number[] = [];
const bytes = Buffer.from(body);
const { parseBytes } = registerRequest(wholeRegisterParams());
let store: Store | undefined;
for (let i = 0; i < 7; i++) {
  let t = performance.now();
  JSON.parse(body);
  parseTimes.push(performance.now() - t);
  t = performance.now();
  store = new Store(registerResponseSchema.parse(JSON.parse(body)));
  buildTimes.push(performance.now() - t);
  t = performance.now();
  store = new Store(registerResponseSchema.parse(parseBytes(bytes))); // as the client reads it
  partsTimes.push(performance.now() - t);
}
const parseMs = median(parseTimes);
const buildMs = median(buildTimes);
printFigure("JSON.parse of the register body (median of 7)", parseMs.toFixed(1), "ms");
printFigure("register body → store (parse + validate + build, median of 7)", buildMs.toFixed(1), "ms");
printFigure("ratio store build / JSON.parse", (buildMs / parseMs).toFixed(2), "× (target ≤ 3)");
const partsMs = median(partsTimes);
printFigure("register bytes → store as the client reads them (in parts, median of 7)", partsMs.toFixed(1), "ms");
printFigure("  ratio to JSON.parse", (partsMs / parseMs).toFixed(2), "× (target ≤ 3)");
{
  // Users are checked as they are used; the rest a batch at a time after the first frame.
  const fresh = new Store(registerResponseSchema.parse(JSON.parse(body)));
  const t0 = performance.now();
  fresh.people.byId.checkSome(Number.POSITIVE_INFINITY);
  printFigure("  then checking every user (after the first frame, in batches)", (performance.now() - t0).toFixed(1), "ms");
}

globalThis.gc?.();
store = undefined;
globalThis.gc?.();
const before = process.memoryUsage().heapUsed;
store = new Store(registerResponseSchema.parse(JSON.parse(body)));
globalThis.gc?.();
printFigure("heap held by the store", ((process.memoryUsage().heapUsed - before) / 1e6).toFixed(1), "MB");
printFigure("heap used after build", (process.memoryUsage().heapUsed / 1e6).toFixed(1), "MB");

// What the first screen computes from the store (once per store change, not per key).
function medianTime(f: () => unknown): number {
  const xs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    f();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}
const built = store;
printFigure("the Inbox's rows from the store (median of 7)", medianTime(() => inbox(built)).toFixed(1), "ms");
printFigure("the sidebar's rows from the store (median of 7)", medianTime(() => buildSidebarRows(built, {})).toFixed(1), "ms");

// A mixed stream: new messages, reads, reactions, edits, subscription changes, typing, heartbeats.
const s = store;
const channels = [...s.channels.keys()];
const users = [...s.users.keys()];
let nextId = 50_000_000;
let eventId = 0;
const raw: Record<string, unknown>[] = [];
const recent: number[] = [];
for (let i = 0; i < 100_000; i++) {
  const kind = i % 10;
  const channelId = channels[i % channels.length]!;
  const sender = users[(i * 7) % users.length]!;
  if (kind < 4) {
    const id = nextId++;
    recent.push(id);
    raw.push({
      type: "message",
      id: eventId++,
      flags: [],
      message: {
        id, sender_id: sender, sender_full_name: "Someone", sender_email: "x@example.test", type: "stream",
        display_recipient: "c", stream_id: channelId, subject: `topic ${i % 50}`, timestamp: 1_763_600_000 + i,
        content: "benchmark message", flags: [], reactions: [], is_me_message: false, recipient_id: channelId,
      },
    });
  } else if (kind < 6) {
    raw.push({ type: "update_message_flags", id: eventId++, op: "add", operation: "add", flag: "read", messages: recent.splice(0, 2), all: false });
  } else if (kind === 6) {
    const id = recent[recent.length - 1] ?? 1;
    raw.push({ type: "reaction", id: eventId++, op: "add", message_id: id, user_id: sender, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" });
  } else if (kind === 7) {
    const id = recent[recent.length - 1] ?? 1;
    raw.push({ type: "update_message", id: eventId++, user_id: sender, message_id: id, message_ids: [id], flags: [], edit_timestamp: 1_763_700_000, content: "edited", rendering_only: false });
  } else if (kind === 8) {
    raw.push({ type: "subscription", id: eventId++, op: "update", stream_id: channelId, property: "pin_to_top", value: i % 20 === 8 });
  } else {
    raw.push({ type: "heartbeat", id: eventId++ });
  }
}
let t = performance.now();
const parsed: ServerEvent[] = raw.map(parseEvent);
const parseEventsMs = performance.now() - t;
t = performance.now();
for (let i = 0; i < parsed.length; i += 100) s.applyAll(parsed.slice(i, i + 100));
const applyMs = performance.now() - t;
printFigure("events applied per second (apply only, 100,000 mixed events)", Math.round(100_000 / (applyMs / 1000)).toLocaleString("en"), "/s (target ≥ 200,000)");
printFigure("events per second including validation (parse + apply)", Math.round(100_000 / ((applyMs + parseEventsMs) / 1000)).toLocaleString("en"), "/s");
await stop();
