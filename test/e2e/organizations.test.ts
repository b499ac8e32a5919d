/**
 * Several organizations in one window, with the built binary in tmux: each
 * organization its own reference server on 127.0.0.1, one account of each in
 * the accounts directory, no --account: all connect at once. A direct
 * message in the organization not on screen raises its count in the sidebar,
 * rings (bell and a desktop notification naming it) and says so in the
 * status line; the combined Inbox (U) lists both; O and the number keys switch; one server stopped leaves the
 * other usable and its row says it is offline until it is back; a message
 * written for it meanwhile waits and is sent once; a refused key shows on
 * its row only.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiAs, ensureBuilt, startApp } from "./app.js";
import { homeWithAccounts, removeHome, startOrgServer, type OrgServer } from "./org-servers.js";
import type { TmuxSession } from "./tmux.js";

let root: string;
let acme: OrgServer;
let oss: OrgServer;
/** A third organization, where the account's key is refused (its failed logins count against its server only). */
let conf: OrgServer;
let session: TmuxSession | undefined;
let home: string | undefined;

beforeAll(async () => {
  ensureBuilt();
  root = join((await import("node:os")).tmpdir(), `termchat-orgs-${process.pid}`);
  [acme, oss, conf] = await Promise.all([startOrgServer("acme", root), startOrgServer("oss", root), startOrgServer("conf", root)]);
}, 60_000);

afterEach(async () => {
  // A test that stopped a server and failed before starting it again leaves it running for the next.
  for (const s of [acme, oss]) if (!s.running()) await s.restart();
  await session?.kill();
  session = undefined;
  if (home) await removeHome(home);
  home = undefined;
});

afterAll(async () => {
  await Promise.all([acme?.stop(), oss?.stop(), conf?.stop()]);
  await removeHome(root);
});

async function start(servers: OrgServer[], extra: Record<string, string> = {}, again = false): Promise<{ session: TmuxSession; log: string }> {
  if (!again || !home) home = await homeWithAccounts(servers, "maya", extra);
  const log = join(home, "output.log");
  session = await startApp([], { env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_CACHE_HOME: join(home, "cache") }, logFile: log, cols: 120, rows: 48 });
  return { session, log };
}

/** The sidebar row of an organization: its name, then (after spaces) what follows on the row. */
function orgRow(screen: string, name: string): string {
  return screen.split("\n").find((l) => new RegExp(`^.[▾▸] ${name}\\b`).test(l))?.slice(0, 30) ?? "";
}

/** Which organization the status line names (the one on screen). */
function onScreen(screen: string, names: string[]): string | undefined {
  const last = screen.trimEnd().split("\n").at(-1) ?? "";
  return names.find((n) => last.includes(`${n} · Lighthouse Labs`));
}

/** Waits until every organization's row is there and none is still connecting. */
async function allConnected(session: TmuxSession, names: string[]): Promise<string> {
  const all = new RegExp(names.map((n) => `(?=[\\s\\S]*[▾▸] ${n}\\b)`).join("") + "[\\s\\S]*● connected");
  let screen = await session.waitFor(all, { timeoutMs: 25_000 });
  // A busy machine may take a while to register several organizations at once.
  for (let i = 0; i < 250 && screen.includes("connecting…"); i++) {
    await new Promise((r) => setTimeout(r, 100));
    screen = await session.capture();
  }
  if (screen.includes("connecting…")) throw new Error(`an organization is still connecting after 25 s:\n${screen}`);
  return screen;
}

async function dmToMaya(site: string, content: string): Promise<void> {
  const ben = await apiAs(site, "ben@lighthouse.test");
  const maya = (await (await apiAs(site, "maya@lighthouse.test"))("GET", "users/me")) as { user_id: number };
  const r = await ben("POST", "messages", { type: "direct", to: JSON.stringify([maya.user_id]), content });
  expect(r.result).toBe("success");
}

/** Counts Maya's DMs to Ben with a text, as Ben reads them on the server (logged in once: logins are rate-limited). */
async function dmsFromMaya(site: string): Promise<(content: string) => Promise<number>> {
  const ben = await apiAs(site, "ben@lighthouse.test");
  const maya = (await (await apiAs(site, "maya@lighthouse.test"))("GET", "users/me")) as { user_id: number };
  const narrow = JSON.stringify([{ operator: "dm", operand: [maya.user_id] }]);
  return async (content) => {
    const r = await ben("GET", "messages", { anchor: "newest", num_before: "50", num_after: "0", narrow, apply_markdown: "false" });
    if (!Array.isArray(r.messages)) throw new Error(`the server did not list the messages: ${JSON.stringify(r)}`);
    return (r.messages as Array<{ content: string }>).filter((m) => m.content === content).length;
  };
}

describe("several organizations at once", () => {
  it("connects both; a DM in the one not on screen raises its count, rings naming it, and the number key switches to it", async () => {
    const { session, log } = await start([acme, oss]);
    const first = await allConnected(session, ["acme", "oss"]);
    const shown = onScreen(first, ["acme", "oss"]);
    expect(shown).toBeDefined();
    const other = shown === "acme" ? oss : acme;
    expect(orgRow(first, shown!)).toMatch(/▾/); // the one on screen is open, the other folded
    expect(orgRow(first, other.name)).toMatch(/▸/);
    const before = Number(/(\d+)\s*$/.exec(orgRow(first, other.name))?.[1] ?? 0);

    await dmToMaya(other.url, "a question from the other organization");
    const after = await session.waitFor(new RegExp(`▸ ${other.name}\\s+${before + 1}\\b`), { timeoutMs: 15_000 });
    expect(after).toContain(`[${other.name}] Ben Carter`);
    const raw = readFileSync(log, "latin1");
    expect(raw).toMatch(new RegExp(`\\x1b\\]9;\\[${other.name}\\] Ben Carter[^\\x07]*a question from the other organization`));

    // The combined Inbox lists both organizations, the DM under the other one.
    await session.sendKeys("U");
    const all = await session.waitFor(/Unread in every organization/, { timeoutMs: 10_000 });
    // Inside the popup's frame (the sidebar beside it has the same names).
    const lines = all.split("\n").map((l) => (l.includes("│") ? l.slice(l.indexOf("│")) : ""));
    const row = (re: RegExp, after = -1) => lines.findIndex((l, i) => i > after && re.test(l));
    const shownAt = row(new RegExp(`▾ ${shown}\\b`));
    const otherAt = row(new RegExp(`▾ ${other.name}\\b`));
    expect(shownAt).toBeGreaterThan(0);
    expect(otherAt).toBeGreaterThan(0);
    // The DM just sent is listed in the other organization's group (after its row, before the next group's if that one follows).
    const dmAt = row(/@ Ben Carter\s+\d+/, otherAt);
    expect(dmAt).toBeGreaterThan(otherAt);
    if (shownAt > otherAt) expect(dmAt).toBeLessThan(shownAt);
    await session.sendKeys("Escape");
    await session.waitForGone(/Unread in every organization/);

    await session.sendKeys(other === acme ? "1" : "2");
    const switched = await session.waitFor(new RegExp(`${other.name} · Lighthouse Labs`), { timeoutMs: 10_000 });
    expect(orgRow(switched, other.name)).toMatch(/▾/);
    expect(orgRow(switched, shown!)).toMatch(/▸/);
    await session.sendKeys("O"); // and round again
    await session.waitFor(new RegExp(`${shown} · Lighthouse Labs`), { timeoutMs: 10_000 });
  });

  it("stopping one server leaves the other usable; its row says offline until it is back; a message written for it meanwhile is sent once", async () => {
    const { session } = await start([acme, oss]);
    await allConnected(session, ["acme", "oss"]);
    // oss on screen, its DM with Ben open.
    await session.sendKeys("2");
    await session.waitFor(/oss · Lighthouse Labs/, { timeoutMs: 10_000 });
    await oss.stop();
    await session.waitFor(/▾ oss ✖ offline/, { timeoutMs: 30_000 });
    await session.sendKeys("Escape"); // the sidebar, and its filter
    await session.sendKeys("q");
    await session.type("Ben Carter");
    await session.waitFor(/q› Ben Carter|q> Ben Carter/);
    await session.sendKeys("Enter");
    await session.waitFor(/^.{31}Ben Carter/m);
    await session.sendKeys("r");
    await session.waitFor(/Enter send/);
    const text = `written while oss was down ${Date.now() % 100000}`;
    await session.type(text);
    await session.sendKeys("Enter");
    await session.waitFor(text);

    // The other organization is unaffected: a message there arrives live, its row stays clean.
    await session.sendKeys("1");
    await session.waitFor(/acme · Lighthouse Labs/, { timeoutMs: 10_000 });
    await dmToMaya(acme.url, "acme is still here");
    const live = await session.waitFor(/▾ acme\s+\d+/, { timeoutMs: 15_000 });
    expect(orgRow(live, "acme")).not.toContain("offline");
    expect(orgRow(live, "oss")).toContain("offline");

    await oss.restart();
    const back = await session.waitFor(/▸ oss(?! ✖)/, { timeoutMs: 30_000 });
    expect(orgRow(back, "oss")).not.toContain("offline");
    let landed = 0;
    const count = await dmsFromMaya(oss.url);
    for (let i = 0; i < 100 && landed === 0; i++) {
      landed = await count(text);
      if (landed === 0) await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1500)); // time to send it a second time, were it to
    expect(await count(text)).toBe(1);
  });

  it("three organizations, one refusing the key: that shows on its row only; the others are connected", async () => {
    const bad = `[api]\nemail=maya@lighthouse.test\nkey=revoked-key-0000\nsite=${conf.url}\n`;
    const { session } = await start([acme, oss], { revoked: bad });
    const screen = await session.waitFor(/▸ revoked ✖/, { timeoutMs: 30_000 });
    expect(orgRow(screen, "revoked")).toMatch(/refused|credentials|key/i);
    const settled = await allConnected(session, ["acme", "oss", "revoked"]);
    expect(orgRow(settled, "acme")).not.toContain("✖");
    expect(orgRow(settled, "oss")).not.toContain("✖");
  });

  it("the palette disconnects one (its row says so), the choice is kept for the next start, and reconnects it", async () => {
    let { session } = await start([acme, oss]);
    await allConnected(session, ["acme", "oss"]);
    await session.sendKeys("C-k");
    await session.type("Disconnect oss");
    await session.waitFor(/Disconnect oss/);
    await session.sendKeys("Enter");
    await session.waitFor(/[▾▸] oss ✖ disconnected/, { timeoutMs: 10_000 });
    const settings = join(home!, ".config", "termchat", "config.json");
    for (let i = 0; i < 100 && !(existsSync(settings) && readFileSync(settings, "utf8").includes('"connect"')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(JSON.parse(readFileSync(settings, "utf8")).organizations.connect).toEqual(["acme"]);

    // The next start lists oss without connecting it.
    await session.kill();
    ({ session } = await start([acme, oss], {}, true));
    const next = await session.waitFor(/(?=[\s\S]*[▾▸] oss ✖ disconnected)[\s\S]*acme · Lighthouse Labs[\s\S]*/, { timeoutMs: 20_000 });
    expect(orgRow(next, "acme")).not.toContain("✖");
    await session.sendKeys("C-k");
    await session.type("Reconnect oss");
    await session.waitFor(/Reconnect oss/);
    await session.sendKeys("Enter");
    await session.waitFor(/▸ oss\s+\d+\s*$/m, { timeoutMs: 20_000 });
    for (let i = 0; i < 100 && JSON.parse(readFileSync(settings, "utf8")).organizations.connect.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(JSON.parse(readFileSync(settings, "utf8")).organizations.connect.sort()).toEqual(["acme", "oss"]);
  });

  it("the palette adds an account by password login (a 0600 zuliprc written, connected at once) and removes one", async () => {
    const { session } = await start([acme, oss]);
    await allConnected(session, ["acme", "oss"]);
    await session.sendKeys("C-k");
    await session.type("Add an account");
    await session.waitFor(/Add an account \(log in/);
    await session.sendKeys("Enter");
    await session.waitFor(/Name \(for the sidebar/);
    await session.type("bens");
    await session.sendKeys("Tab");
    await session.type(oss.url);
    await session.sendKeys("Tab");
    await session.type("ben@lighthouse.test");
    await session.sendKeys("Tab");
    await session.type("termchat-demo");
    const form = await session.waitFor(/•{13}/);
    expect(form).not.toContain("termchat-demo"); // the password is never drawn
    await session.sendKeys("Enter");
    const added = await session.waitFor(/bens · Lighthouse Labs/, { timeoutMs: 20_000 });
    expect(added).toMatch(/▾ bens/);
    const file = join(home!, ".config", "termchat", "accounts", "bens.zuliprc");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toMatch(/email=ben@lighthouse\.test/);

    await session.sendKeys("C-k");
    await session.type("Remove the account bens");
    await session.waitFor(/Remove the account bens/);
    await session.sendKeys("Enter");
    await session.waitFor(/Remove bens\?/);
    await session.sendKeys("y");
    await session.waitForGone(/[▾▸] bens\b/, { timeoutMs: 10_000 });
    for (let i = 0; i < 50 && existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(file)).toBe(false);
  });
});
