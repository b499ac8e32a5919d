/**
 * Renders the real App (ink-testing-library) on a real account runtime, held
 * by an accounts registry as the program holds it, connected to the
 * in-process reference server; the App is given the account's handle. Keys
 * and waits run inside act().
 */
import { act } from "react";
import { render } from "ink-testing-library";
import { ApiClient } from "../../src/api/http.js";
import { App } from "../../src/ui/App.js";
import { DEFAULT_SETTINGS, type Settings } from "../../src/config/settings.js";
import { KeypressProvider } from "../../src/ui/hooks/use-keypress.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AccountRuntime, AccountRuntimeOptions } from "../../src/sync/account-runtime.js";
import { AccountsRegistry } from "../../src/sync/accounts-registry.js";
import type { Commands } from "../../src/sync/commands.js";
import type { UpdateMachine } from "../../src/sync/update-machine.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";
import { buildSidebarRows } from "../../src/ui/sidebar-rows.js";
import { RenderProbe } from "../../src/ui/render-probe.js";

export interface AppHarness {
  ctx: ServerFixture;
  runtime: AccountRuntime;
  machine: UpdateMachine;
  commands: Commands;
  frame(): string;
  press(...keys: string[]): Promise<void>;
  /** Moves the sidebar cursor from the top to the row whose label is `label` (found in the model's rows). */
  sidebarTo(label: string): Promise<void>;
  waitFor(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Waits (rendering meanwhile) until `check` holds; `what` names it in the error. */
  until(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The id of a channel the logged-in user is subscribed to, by name. */
export function channelId(a: AppHarness, name: string): number {
  const c = [...a.machine.store!.channels.values()].find((s) => s.name === name);
  if (!c) throw new Error(`not subscribed to ${name}`);
  return c.stream_id;
}

export const KEY = { enter: "\r", escape: "\u001b", down: "\u001b[B", up: "\u001b[A", ctrlJ: "\n", backspace: "\u007f" };

/**
 * `as`: log in as this demo user (an email or its local part, e.g. "ben"); default the owner.
 * The app opens on the combined feed unless `settings.startView` says otherwise.
 * `color`: draw in colour (at chalk's level, which the test sets).
 */
export async function renderApp(
  opts: {
    as?: string;
    spectator?: boolean;
    settings?: Settings;
    color?: boolean;
    size?: { columns: number; rows: number };
    probe?: (name: string) => void;
    /** The update machine's options (endpoints replaced, the user list after the start). */
    machine?: AccountRuntimeOptions["machine"];
  } = {},
): Promise<AppHarness> {
  const ctx = await withServer({ heartbeatMs: 500 });
  const stateDir = await mkdtemp(join(tmpdir(), "termchat-ui-"));
  // A spectator reads without an account: a client with no credentials.
  const client = opts.spectator ? new ApiClient({ site: ctx.server.url, spectator: true }) : ctx.client(opts.as);
  const accounts = new AccountsRegistry();
  const { runtime, handle } = await accounts.open({ client, account: { site: client.site.href, email: client.email }, stateDir, machine: opts.machine });
  const { machine, commands } = runtime;
  await runtime.start();
  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(
      <RenderProbe.Provider value={opts.probe}>
        <KeypressProvider onAnyKey={handle.actions.keyPressed}>
          <App account={handle} color={opts.color ?? false} settings={{ ...DEFAULT_SETTINGS, startView: "feed", ...opts.settings }} />
        </KeypressProvider>
      </RenderProbe.Provider>,
    );
  });
  if (opts.size) {
    // ink-testing-library's terminal is 100 columns and no rows: give it the size asked for, as a resize would.
    const { columns, rows } = opts.size;
    Object.defineProperties(instance.stdout, { columns: { get: () => columns }, rows: { get: () => rows } });
    await act(async () => void instance.stdout.emit("resize"));
  }
  const frame = () => instance.lastFrame() ?? "";
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      await act(async () => {
        instance.stdin.write(k);
        await new Promise((r) => setTimeout(r, 15));
      });
    }
  };
  const until = async (check: () => boolean, what: string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (let i = 0; i < 1000 && Date.now() < deadline; i++) {
      if (check()) return;
      await act(async () => {
        await new Promise((r) => setTimeout(r, 20));
      });
    }
    throw new Error(`waited ${timeoutMs} ms for ${what}; last frame:\n${frame()}`);
  };
  return {
    ctx,
    runtime,
    machine,
    commands,
    frame,
    press,
    async sidebarTo(label) {
      const rows = buildSidebarRows(machine.store!, {});
      const index = rows.findIndex((r) => (r.kind === "channel" ? r.name : r.kind === "header" ? "" : r.label) === label);
      if (index < 0) throw new Error(`no sidebar row ${label}`);
      const skipped = rows.slice(0, index).filter((r) => r.kind === "header").length;
      await press("g", ...Array<string>(index - skipped).fill("j"));
    },
    async waitFor(match, timeoutMs = 15_000) {
      await until(() => (typeof match === "string" ? frame().includes(match) : match.test(frame())), String(match), timeoutMs);
      return frame();
    },
    until,
    async close() {
      await act(async () => instance.unmount());
      await accounts.closeAll(1500);
      if (opts.spectator) await client.close();
      await ctx.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}
