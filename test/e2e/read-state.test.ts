/**
 * Read state with the built binary in tmux, checked on the server as the user:
 * the combined feed opens at the first unread message and only what is on
 * screen becomes read (the messages below stay unread, and after jumping to the
 * newest, those passed over and a mention far above stay unread too); with the
 * setting "never" nothing becomes read by viewing, and `M` still marks.
 *
 * "Settled" is a condition, not a pause: the server's unread messages and the
 * screen have not changed for a while, and the client's own count agrees with
 * the server's (its marks went out and came back as events).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiAs, ensureBuilt, freePort, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

type Api = Awaited<ReturnType<typeof apiAs>>;
interface Sent {
  id: number;
  label: string;
}

let session: TmuxSession | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
});

const HOME_UNREAD = JSON.stringify([
  { operator: "in", operand: "home" },
  { operator: "is", operand: "unread" },
]);

/** The user's unread messages in the combined feed, from the server. */
async function unreadOnServer(api: Api): Promise<number[]> {
  const res = await api("GET", "messages", { anchor: "oldest", num_before: "0", num_after: "1000", narrow: HOME_UNREAD, apply_markdown: "false" });
  return (res["messages"] as Array<{ id: number }>).map((m) => m.id);
}

/** The combined feed's count in the sidebar (0 when none is shown). */
function feedCount(screen: string): number {
  const m = /≡ Combined feed +(\d+)/.exec(screen);
  return m ? Number(m[1]) : 0;
}

/** Waits until the server's unread messages and the screen stay the same for `quietMs`, with the client's count agreeing. */
async function settle(s: TmuxSession, api: Api, quietMs = 2_000, timeoutMs = 30_000): Promise<{ unread: number[]; screen: string }> {
  const end = Date.now() + timeoutMs;
  let last = "";
  let since = Date.now();
  for (let i = 0; i < 400 && Date.now() < end; i++) {
    const unread = await unreadOnServer(api);
    const screen = await s.capture();
    const now = JSON.stringify(unread) + screen;
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs && feedCount(screen) === unread.length) {
      return { unread, screen };
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`never settled; last screen:\n${await s.capture()}`);
}

/** Sends messages as another user, one line each, labelled so the screen can be read. */
async function sendAll(api: Api, channel: number, topic: string, labels: string[], text = (l: string) => `e2e ${l} note`): Promise<Sent[]> {
  const out: Sent[] = [];
  for (const label of labels) {
    const res = await api("POST", "messages", { type: "stream", to: String(channel), topic, content: text(label) });
    out.push({ id: res["id"] as number, label });
  }
  return out;
}

const labels = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i + 1).padStart(2, "0")}`);
const onScreen = (screen: string, m: Sent) => screen.includes(`e2e ${m.label} note`);

async function demo(): Promise<{ site: string; maya: Api; ben: Api; general: number }> {
  const port = await freePort();
  const site = `http://127.0.0.1:${port}`;
  session = await startApp(["--demo", "--port", String(port)], { cols: 100, rows: 30 });
  await session.waitFor(/connected/, { timeoutMs: 15_000 });
  const maya = await apiAs(site, "maya@lighthouse.test");
  const ben = await apiAs(site, "ben@lighthouse.test");
  const reg = await ben("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
  const general = (reg["subscriptions"] as Array<{ name: string; stream_id: number }>).find((c) => c.name === "general")!.stream_id;
  // A clean slate: the demo's own unread messages read, so every unread one is the test's.
  expect((await maya("POST", "mark_all_as_read"))["result"]).toBe("success");
  return { site, maya, ben, general };
}

describe("read state through the built binary", () => {
  it("the combined feed opens at the first unread message; only what was on screen becomes read, on the server too", async () => {
    const { maya, ben, general } = await demo();
    const before = await sendAll(ben, general, "e2e before", labels("A", 30));
    const [mention] = await sendAll(ben, general, "e2e mention", ["M01"], (l) => `@**Maya Okafor** e2e ${l} note, far from the screen`);
    const after = await sendAll(ben, general, "e2e after", labels("B", 30));
    const all = [...before, mention!, ...after];
    await session!.waitFor(new RegExp(`≡ Combined feed +${all.length}\\b`), { timeoutMs: 15_000 });
    expect(await unreadOnServer(maya)).toEqual(all.map((m) => m.id));

    // Open the feed: it lands at the first unread message, with unread ones below the screen.
    await session!.sendKeys("a");
    await session!.waitFor("e2e A01 note");
    const first = await settle(session!, maya);
    const read1 = all.filter((m) => !first.unread.includes(m.id));
    const shown1 = all.filter((m) => onScreen(first.screen, m));
    expect(shown1[0]?.label).toBe("A01");
    expect(read1.length).toBeGreaterThan(5);
    for (const m of read1) expect(shown1, `${m.label} was read without being on screen`).toContainEqual(m);
    // All of those on screen but one cut at an edge.
    expect(read1.length).toBeGreaterThanOrEqual(shown1.length - 1);
    expect(first.unread).toContain(mention!.id);
    for (const m of after) expect(first.unread).toContain(m.id);
    expect(first.screen).toContain("e2e A01 note"); // the view stayed where it opened

    // Jump to the newest: the last screen becomes read; what was passed over, and the mention far above, stay unread.
    await session!.sendKeys("G");
    await session!.waitFor("e2e B30 note");
    const second = await settle(session!, maya);
    const read2 = all.filter((m) => first.unread.includes(m.id) && !second.unread.includes(m.id));
    const shown2 = all.filter((m) => onScreen(second.screen, m));
    expect(read2.length).toBeGreaterThan(5);
    for (const m of read2) expect(shown2, `${m.label} was read without being on screen`).toContainEqual(m);
    expect(read2.length).toBeGreaterThanOrEqual(shown2.length - 1);
    expect(second.unread).toContain(mention!.id);
    expect(onScreen(second.screen, mention!)).toBe(false);
    const passedOver = all.filter((m) => !onScreen(first.screen, m) && !onScreen(second.screen, m));
    expect(passedOver.length).toBeGreaterThan(5);
    for (const m of passedOver) expect(second.unread, `${m.label} was passed over`).toContain(m.id);
  });

  it("with the setting \"never\", viewing marks nothing, live as the setting changes; M still marks", async () => {
    const { maya, ben, general } = await demo();
    // Changed while the client runs: it learns of it from the user_settings event.
    expect((await maya("PATCH", "settings", { web_mark_read_on_scroll_policy: "3" }))["result"]).toBe("success");
    const sent = await sendAll(ben, general, "e2e never", labels("N", 8));
    await session!.waitFor(new RegExp(`≡ Combined feed +${sent.length}\\b`), { timeoutMs: 15_000 });

    await session!.sendKeys("a");
    await session!.waitFor("e2e N08 note");
    const feed = await settle(session!, maya);
    expect(feed.unread).toEqual(sent.map((m) => m.id));

    // A conversation view too.
    await session!.sendKeys("n");
    await session!.waitFor("#general > e2e never");
    const topic = await settle(session!, maya);
    expect(topic.unread).toEqual(sent.map((m) => m.id));

    await session!.sendKeys("M");
    await session!.waitFor("Marked #general > e2e never as read");
    const marked = await settle(session!, maya);
    expect(marked.unread).toEqual([]);
  });
});
