/**
 * Notifications from the real App: another user DMs maya over HTTP and the
 * bytes written to the terminal carry one bell and one OSC 9 (and OSC 777)
 * with a clean preview; hostile bytes cannot inject a sequence; a burst is
 * coalesced; nothing rings for what the initial load brought or for maya's
 * own messages.
 */
import { act } from "react";
import { render } from "ink-testing-library";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sendMessage } from "../../src/api/routes/messages.js";
import { DEFAULT_SETTINGS, type Settings } from "../../src/config/settings.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { accountHandle } from "../../src/sync/account-handle.js";
import { App } from "../../src/ui/App.js";
import { KeypressProvider } from "../../src/ui/hooks/use-keypress.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Harness {
  ctx: ServerFixture;
  session: AccountRuntime;
  /** Everything the App wrote to its terminal. */
  bytes(): string;
  frame(): string;
  waitFor(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  sleep(ms: number): Promise<void>;
  close(): Promise<void>;
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(settings: Settings = DEFAULT_SETTINGS): Promise<Harness> {
  const ctx = await withServer({ heartbeatMs: 500 });
  const stateDir = await mkdtemp(join(tmpdir(), "termchat-notify-"));
  const client = ctx.client();
  const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: ctx.owner.email }, stateDir });
  await session.machine.start();
  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(
      <KeypressProvider>
        <App account={accountHandle(session)} settings={settings} color={false} />
      </KeypressProvider>,
    );
  });
  const sleep = (ms: number) =>
    act(async () => {
      await new Promise((r) => setTimeout(r, ms));
    });
  return {
    ctx,
    session,
    bytes: () => instance.frames.join(""),
    frame: () => instance.lastFrame() ?? "",
    sleep,
    async waitFor(check, what, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (let i = 0; i < 1000 && Date.now() < deadline; i++) {
        if (check()) return;
        await sleep(20);
      }
      throw new Error(`waited ${timeoutMs} ms for ${what}`);
    },
    async close() {
      await act(async () => instance.unmount());
      await session.dispose(1500);
      await ctx.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

const osc9 = (s: string) => [...s.matchAll(/\x1b\]9;([^\x07\x1b]*)\x07/g)].map((m) => m[1]);
const osc777 = (s: string) => [...s.matchAll(/\x1b\]777;notify;([^\x07\x1b]*)\x07/g)].map((m) => m[1]);

async function connected(x: Harness) {
  await x.waitFor(() => x.frame().includes("connected"), "the app to connect");
  await x.sleep(200);
}

function dm(x: Harness, from: string, content: string) {
  const maya = x.ctx.owner;
  return sendMessage(x.ctx.client(from), { type: "direct", to: [maya.email], content });
}

describe("notifications", () => {
  it("a DM from another user rings once with the sender and a preview; the initial load and own messages do not", async () => {
    h = await start();
    const x = h;
    await connected(x);
    // Maya starts with unread DMs and mentions: none of them notifies.
    expect(osc9(x.bytes())).toEqual([]);
    expect(x.bytes()).not.toContain("\x07");

    await dm(x, "ben", "Could you **look at** the release notes?");
    await x.waitFor(() => osc9(x.bytes()).length > 0, "an OSC 9 notification");
    await x.sleep(300);
    const out = x.bytes();
    expect(osc9(out)).toEqual(["Ben Carter: Could you look at the release notes?"]);
    expect(osc777(out)).toEqual(["Ben Carter;Could you look at the release notes?"]);
    expect(out.split("\x07\x1b]9;").length).toBe(2); // the bell, right before it

    // Maya's own message to Ben rings nothing.
    await sendMessage(x.ctx.client(), { type: "direct", to: [x.ctx.account("admin").email], content: "on it" });
    await x.sleep(1300);
    expect(osc9(x.bytes())).toHaveLength(1);
  });

  it("a hostile body cannot inject an escape sequence through the notification", async () => {
    h = await start();
    const x = h;
    await connected(x);
    await dm(x, "omar", "look\x1b]0;owned title\x07 here\x1b]52;c;ZXZpbA==\x07 \x1b[2J\u009b31m now\x07!");
    await x.waitFor(() => osc9(x.bytes()).length > 0, "an OSC 9 notification");
    await x.sleep(300);
    const out = x.bytes();
    const [note] = osc9(out);
    expect(note).toBeDefined();
    expect(note).toMatch(/^Omar Haddad: look/);
    expect(note).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    // Nothing the server sent became a sequence of its own, anywhere in the output.
    expect(out).not.toContain("\x1b]0;");
    expect(out).not.toContain("\x1b]52;");
    expect(out).not.toContain("\x1b[2J");
    expect(out).not.toContain("\u009b");
  });

  it("a burst is coalesced: at most one notification a second", async () => {
    h = await start();
    const x = h;
    await connected(x);
    await dm(x, "ben", "one");
    await dm(x, "ben", "two");
    await dm(x, "priya", "three");
    await x.waitFor(() => osc9(x.bytes()).length >= 2, "the coalesced notification", 4000);
    await x.sleep(1200);
    expect(osc9(x.bytes())).toEqual(["Ben Carter: one", "2 new messages — Priya Raman: three"]);
  });

  it("follows the settings: no bell and no desktop notification when both are off", async () => {
    h = await start({ ...DEFAULT_SETTINGS, notifications: { bell: false, desktop: false } });
    const x = h;
    await connected(x);
    await dm(x, "ben", "quiet please");
    const arrived = () => [...(x.session.machine.store?.messages.byId.values() ?? [])].some((m) => m.content === "quiet please");
    await x.waitFor(arrived, "the message to arrive");
    await x.sleep(300);
    expect(osc9(x.bytes())).toEqual([]);
    expect(x.bytes()).not.toContain("\x07");
  });
});
