/**
 * Terminal safety: hostile bytes in every server-provided string the API lets
 * a user set (channel names and descriptions, topics, message bodies, status
 * texts, channel folders, user groups) never reach the terminal as escape
 * sequences or control characters. The built binary runs in tmux with every
 * byte it writes logged, and we look at those bytes — not at the screen,
 * which a terminal would already have interpreted.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import stringWidth from "string-width";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { BIDI_ONLY, PAYLOADS, hostileBody, markersOnScreen, terminalLeaks } from "../fixtures/hostile.js";
import { apiAs, ensureBuilt, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

const COLS = 140;
const ROWS = 60;
const SIDEBAR = 30;

let session: TmuxSession | undefined;
let server: RunningServer | undefined;
let dir: string | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

type Api = Awaited<ReturnType<typeof apiAs>>;

async function ok(call: Promise<Record<string, unknown>>, what: string): Promise<Record<string, unknown>> {
  const res = await call;
  if (res.result !== "success") throw new Error(`${what}: ${JSON.stringify(res)}`);
  return res;
}

/** Creates the hostile organization data as the owner; returns the ids the test navigates to. */
async function plantPayloads(maya: Api, ben: Api) {
  await ok(maya("POST", "users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "zq-hostile", description: "plain" }]) }), "create channel");
  await ok(maya("POST", "users/me/subscriptions", { subscriptions: JSON.stringify([{ name: BIDI_ONLY.text }]) }), "create bidi channel");
  const reg = await maya("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
  const subs = reg.subscriptions as Array<{ name: string; stream_id: number }>;
  const hostile = subs.find((s) => s.name === "zq-hostile")!.stream_id;
  const bidi = subs.find((s) => s.name === BIDI_ONLY.text)!.stream_id;
  // Pinned, so it is near the top of the sidebar.
  await ok(
    maya("POST", "users/me/subscriptions/properties", {
      subscription_data: JSON.stringify([{ stream_id: hostile, property: "pin_to_top", value: true }]),
    }),
    "pin",
  );
  await ok(maya("PATCH", `streams/${hostile}`, { description: PAYLOADS.map((x) => x.text).join(" ") }), "description");
  // A folder with a hostile name (and description), holding the bidi channel.
  const folder = await ok(maya("POST", "channel_folders/create", { name: PAYLOADS[4]!.text, description: PAYLOADS[1]!.text }), "folder");
  await ok(maya("PATCH", `streams/${bidi}`, { folder_id: String(folder.channel_folder_id) }), "folder_id");
  // One topic per payload, a body holding all of them, and one from another user.
  for (const x of PAYLOADS) {
    await ok(maya("POST", "messages", { type: "stream", to: String(hostile), topic: x.text, content: `topic: ${x.name}` }), x.name);
  }
  await ok(ben("POST", "messages", { type: "stream", to: String(hostile), topic: "bodies", content: hostileBody() }), "body");
  await ok(maya("POST", "users/me/status", { status_text: PAYLOADS[0]!.text }), "status");
  await ok(ben("POST", "users/me/status", { status_text: PAYLOADS[8]!.text }), "status");
  await ok(maya("POST", "user_groups/create", { name: PAYLOADS[2]!.text, description: PAYLOADS[3]!.text, members: "[]" }), "group");
  return { hostile, bidi, folderId: Number(folder.channel_folder_id) };
}

/** The sidebar's text (its columns of the screen), one entry per row. */
function sidebarLines(screen: string): string[] {
  return screen.split("\n").map((l) => [...l].slice(0, SIDEBAR).join("").trimEnd());
}

/** Presses keys one at a time, at a brisk typing pace (bounded: one tmux call and a short pause per key). */
async function press(s: TmuxSession, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    await s.sendKeys(k);
    await new Promise((r) => setTimeout(r, 120));
  }
}

/** Moves the sidebar cursor from the first row to the row showing `label` (no scrolling: the terminal is tall). */
async function sidebarTo(s: TmuxSession, label: string | RegExp): Promise<void> {
  const lines = sidebarLines(await s.waitFor(label));
  const index = lines.findIndex((l) => (typeof label === "string" ? l.includes(label) : label.test(l)));
  if (index < 0) throw new Error(`no sidebar row ${String(label)} in:\n${lines.join("\n")}`);
  const headers = lines.slice(0, index).filter((l) => /^DIRECT MESSAGES/.test(l)).length;
  await press(s, "g", ...Array<string>(index - headers).fill("j"));
}

describe("the leak check", () => {
  it("flags every payload written as is", () => {
    for (const x of PAYLOADS) expect(terminalLeaks(Buffer.from(`text ${x.text} text\n`)), x.name).not.toEqual([]);
    expect(terminalLeaks(Buffer.from("plain \x1b[1mbold\x1b[22m \x1b]8;;https://ok.test/\x07link\x1b]8;;\x07\r\n"))).toEqual([]);
  });
});

describe("hostile bytes from the server", () => {
  it("never reach the terminal as escape sequences or control characters", async () => {
    server = await startServer({ port: 0, host: "127.0.0.1" });
    const maya = await apiAs(server.url, "maya@lighthouse.test");
    const ben = await apiAs(server.url, "ben@lighthouse.test");
    const { hostile } = await plantPayloads(maya, ben);

    dir = mkdtempSync(join(tmpdir(), "termchat-hostile-"));
    const owner = server.accounts[0]!;
    const rc = join(dir, "zuliprc");
    writeFileSync(rc, `[api]\nemail=${owner.email}\nkey=${owner.apiKey}\nsite=${server.url}\n`, { mode: 0o600 });
    const logFile = join(dir, "raw.log");
    session = await startApp(["--config", rc], {
      cols: COLS,
      rows: ROWS,
      logFile,
      env: { HOME: dir, XDG_CONFIG_HOME: join(dir, "config") },
    });
    await session.waitFor(/connected/, { timeoutMs: 15_000 });
    await session.waitFor("zq-hostile");
    await new Promise((r) => setTimeout(r, 300));
    // Whatever the start view: the Combined feed (a), then back to the sidebar (Esc).
    await press(session, "a");
    await session.waitFor(/\w+ \w+ {2}(\w{3} \d+ )?\d{1,2}:\d{2}/); // messages in the pane
    await press(session, "Escape");

    // Sidebar: the pinned hostile channel, its topics (each one a payload), the hostile folder and the bidi channel.
    await sidebarTo(session, "zq-hostile");
    await press(session, "l");
    const topics = await session.waitFor("ZQd");
    const sidebar = sidebarLines(topics).join("\n");
    for (const x of PAYLOADS) expect(sidebar, `topic ${x.name} in the sidebar`).toContain(x.marker);
    expect(sidebar).toContain("▾ ZQ5ZQ5"); // the folder
    expect(sidebar).toContain("ZQbevil");

    // Message pane: the channel's messages (recipient headers are the hostile topics), then the body, read from top to bottom.
    await press(session, "Tab");
    await session.waitFor(/bodies/);
    await press(session, ...Array<string>(8).fill("K"), ...Array<string>(8).fill("J"));
    const pane = await session.waitFor("ZQe");
    expect(pane).toMatch(/OSC 0 title: ZQ1ZQ1/);
    expect(pane).toMatch(/OSC 8 hyperlink: ZQ4pwnedZQ4/);

    // The views other features add, where they exist: the sender's card (status text), the message
    // info (raw source), the people list (statuses), the command palette. Each is closed again.
    const shown: string[] = [];
    for (const [key, view] of [
      ["u", "user card"],
      ["i", "message info"],
      ["w", "people"],
      ["C-k", "palette"],
    ] as const) {
      const before = await session.capture();
      await press(session, key);
      await new Promise((r) => setTimeout(r, 600));
      if ((await session.capture()) === before) continue; // no such view (yet)
      shown.push(view);
      await press(session, "Escape");
      await session.waitFor(before.split("\n")[0]!, { timeoutMs: 3_000 });
    }
    // Quote-reply puts the hostile body into the compose editor; Esc keeps it as a draft.
    // The cursor walks up through every line of the quote, so each one is drawn.
    await press(session, ">");
    await session.waitFor(/ \d+-\d+\/\d+ /); // the compose box's line range
    await press(session, ...Array<string>(16).fill("Up"));
    await press(session, "Escape");
    await session.waitForGone(/ \d+-\d+\/\d+ /);
    console.log(`hostile strings also shown in: ${shown.join(", ") || "(none of the optional views exist)"}`);

    // Each topic opened on its own: the topic's title line holds the payload.
    await press(session, "Escape");
    await sidebarTo(session, "ZQ1ZQ1");
    await press(session, "Enter");
    await session.waitFor(/topic: OSC 0 title/);

    // Live events: the same strings arriving while the client runs.
    await press(session, "Escape");
    await ok(ben("POST", "messages", { type: "stream", to: String(hostile), topic: PAYLOADS[5]!.text, content: hostileBody() }), "live body");
    await ok(maya("PATCH", `streams/${hostile}`, { description: PAYLOADS.slice(5).map((x) => x.text).join(" ") }), "live description");
    await ok(ben("POST", "users/me/status", { status_text: PAYLOADS[10]!.text }), "live status");
    await ok(maya("POST", "messages", { type: "private", to: JSON.stringify([owner.userId]), content: hostileBody() }), "dm to self");
    await ok(ben("POST", "messages", { type: "private", to: JSON.stringify([owner.userId]), content: `@**${owner.fullName}** ${hostileBody()}` }), "dm");
    await sidebarTo(session, /Combined feed/);
    await press(session, "Enter");
    await press(session, "G");
    await session.waitFor(/DSR query and RIS reset: ZQdZQd/);

    // What the terminal received.
    await new Promise((r) => setTimeout(r, 500)); // the output pipe is asynchronous
    const raw = await session.rawOutput();
    expect(raw.length).toBeGreaterThan(1000);
    expect(terminalLeaks(raw)).toEqual([]);
    // The screen shows the harmless parts, and nothing overflows its row.
    const screen = await session.capture();
    expect(markersOnScreen(screen).size).toBeGreaterThan(5);
    for (const line of screen.split("\n")) expect(stringWidth(line)).toBeLessThanOrEqual(COLS);
    expect(await session.isAlive()).toBe(true);
  }, 90_000);
});
