/**
 * The mouse with the built client in tmux. Off by default: the client asks the terminal for
 * no mouse reports at all (tmux's own flags for the pane say so), so the terminal's text
 * selection is untouched; m turns it on and off. On (from the settings file): a click on a
 * sidebar row or an Inbox row opens it, a click on a message selects it, the wheel moves through
 * the Inbox's rows and the messages,
 * a click on a link opens it in the browser ($BROWSER, here a script that notes the address);
 * and quitting turns the reports off again.
 *
 * tmux passes what is typed into the pane on as it is, so the mouse reports a terminal sends
 * (SGR: ESC [ < button ; column ; row M, then m on release) are typed with send-keys -l.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiAs, BIN, ensureBuilt, freePort, ROOT } from "./app.js";
import { pollUntil } from "./tmux-support.js";
import { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;
let dir: string | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const MOUSE_ON = "\x1b[?1000h";
const SGR_ON = "\x1b[?1006h";
const MOUSE_OFF = "\x1b[?1000l";

async function start(settings: object | undefined, port: number): Promise<{ s: TmuxSession; dir: string }> {
  const d = (dir = mkdtempSync(join(tmpdir(), "termchat-mouse-")));
  mkdirSync(join(d, "config", "termchat"), { recursive: true });
  if (settings) writeFileSync(join(d, "config", "termchat", "config.json"), JSON.stringify(settings));
  // The "browser": notes the address it was asked to open.
  const browser = join(d, "browser.sh");
  writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${join(d, "opened.txt")}'\n`);
  chmodSync(browser, 0o755);
  const env = { XDG_CONFIG_HOME: join(d, "config"), XDG_STATE_HOME: join(d, "state"), DISPLAY: ":0", BROWSER: browser };
  const s = await TmuxSession.start([process.execPath, BIN, "--demo", "--port", String(port)], { cols: 100, rows: 30, cwd: ROOT, env, logFile: join(d, "output.log") });
  session = s;
  await s.waitFor(/connected.*Maya Okafor/, { timeoutMs: 30_000 });
  return { s, dir: d };
}

/** The cell (from 1, as reports count) where `text` first shows on the screen. */
function cellOf(screen: string, text: string | RegExp): { x: number; y: number } {
  const lines = screen.split("\n");
  for (let y = 0; y < lines.length; y++) {
    const m = typeof text === "string" ? { index: lines[y]!.indexOf(text) } : text.exec(lines[y]!);
    // Columns as cells: every character before it on these lines is one cell wide (checked below).
    if (m && m.index !== undefined && m.index >= 0) return { x: [...lines[y]!.slice(0, m.index)].length + 1, y: y + 1 };
  }
  throw new Error(`${String(text)} is not on the screen:\n${screen}`);
}

const press = (button: number, c: { x: number; y: number }) => `\x1b[<${button};${c.x};${c.y}M`;
const click = (c: { x: number; y: number }) => press(0, c) + `\x1b[<0;${c.x};${c.y}m`;

describe("the mouse", () => {
  it("is off by default: nothing is asked of the terminal until m turns it on, and m turns it off", async () => {
    const { s } = await start(undefined, await freePort());
    const before = (await s.rawOutput()).toString();
    // No mouse mode of any kind (X10 9, normal 1000, highlight 1001, button 1002, any 1003, UTF-8 1005, SGR 1006, urxvt 1015).
    expect(before).not.toMatch(/\x1b\[\?(?:9|100[0-6]|1015)(?:;\d+)*h/);

    await s.sendKeys("m");
    await s.waitFor("Mouse on (saved)");
    const on = (await s.waitForRaw(SGR_ON)).toString();
    expect(on).toContain(MOUSE_ON);
    expect(JSON.parse(readFileSync(join(dir!, "config", "termchat", "config.json"), "utf8")).mouse).toBe(true);

    await s.sendKeys("m");
    await s.waitFor("Mouse off (saved)");
    await s.waitForRaw(MOUSE_OFF);
  });

  it("on: a click opens a sidebar row and selects a message, the wheel moves, a link opens, and quitting turns it off", async () => {
    const port = await freePort();
    const { s, dir: d } = await start({ mouse: true }, port);
    await s.waitForRaw(SGR_ON);

    // The Inbox (the first screen, right of the sidebar's 30 columns): the wheel moves its
    // cursor, a click opens a conversation.
    const inInbox = (name: string) => new RegExp(`(?<=^.{30,})@ ${name}`);
    const inbox = await s.waitFor(/▌ @ Lena Fischer/);
    await s.type(press(65, cellOf(inbox, inInbox("Lena Fischer"))));
    await s.waitFor(/▌ @ Omar Haddad/);
    await s.type(press(64, cellOf(inbox, inInbox("Omar Haddad"))));
    await s.waitFor(/▌ @ Lena Fischer/);
    await s.type(click(cellOf(inbox, inInbox("Omar Haddad"))));
    await s.waitFor(/^[^\n]* Omar Haddad *\n/); // the open view's title, on the first line

    // Two messages from someone else in a topic of #design: some words, then a link.
    const tag = Date.now() % 100000;
    const url = `https://example.com/mouse/${tag}`;
    const ben = await apiAs(`http://127.0.0.1:${port}`, "ben@lighthouse.test");
    await ben("POST", "messages", { type: "stream", to: "design", topic: "mouse check", content: `words to click on ${tag}` });
    await ben("POST", "messages", { type: "stream", to: "design", topic: "mouse check", content: `see ${url} please` });
    const onLink = /▌.*see https:\/\/example\.com/;

    // The sidebar's #design row: a click opens the channel and shows its topics; a click on one opens it.
    const sidebar = await s.waitFor(/▸#design/);
    await s.type(click(cellOf(sidebar, /▸#design/)));
    const topics = await s.waitFor(/^\s+mouse check/m);
    await s.type(click(cellOf(topics, /^\s+mouse check/)));
    const opened = await s.waitFor(url);
    const onWords = new RegExp(`▌\\s*words to click on ${tag}`);

    // A click on a message's text selects it (the gutter's mark moves to its line).
    await s.type(click(cellOf(opened, "please")));
    const selected = await s.waitFor(onLink);
    expect(selected).not.toMatch(onWords);

    // The wheel over the pane: one step up, the message before; one down, back.
    const pane = cellOf(selected, `click on ${tag}`);
    await s.type(press(64, pane));
    expect(await s.waitFor(onWords)).not.toMatch(onLink);
    await s.type(press(65, pane));
    await s.waitFor(onLink);

    // A click on the link opens it.
    await s.type(click(cellOf(await s.capture(), "example.com/mouse")));
    await s.waitFor(/Opened .* in the browser/);
    const opens = join(d, "opened.txt");
    expect(await pollUntil({ timeoutMs: 10_000 }, async () => existsSync(opens))).toBe(true);
    expect(readFileSync(opens, "utf8").trim()).toBe(url);

    // Mouse reports never show as typed text: into the compose box they go nowhere.
    await s.sendKeys("r");
    await s.waitFor("Enter send");
    await s.type(`ab${press(64, pane)}cd`);
    await s.waitFor("abcd");
    await s.sendKeys("Escape");
    await s.waitForGone("Enter send");

    await s.sendKeys("C-c");
    await s.waitForExit({ timeoutMs: 15_000 });
    const out = (await s.rawOutput()).toString();
    expect(out.lastIndexOf(MOUSE_OFF)).toBeGreaterThan(out.lastIndexOf(MOUSE_ON));
  });

  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    it(`is turned off when ${signal} ends the client`, async () => {
      const { s } = await start({ mouse: true }, await freePort());
      await s.waitForRaw(SGR_ON);
      const pid = await s.pid();
      expect(pid).toBeDefined();
      process.kill(pid!, signal);
      await s.waitForExit({ timeoutMs: 15_000 });
      const out = (await s.rawOutput()).toString();
      expect(out.lastIndexOf(MOUSE_OFF)).toBeGreaterThan(out.lastIndexOf(MOUSE_ON));
    });
  }
});
