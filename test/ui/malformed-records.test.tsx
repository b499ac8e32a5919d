/**
 * A server that sends a malformed user (in the user list, fetched apart from the register) or
 * channel (in register): the client starts anyway, with the record left out, and says so in the
 * status line (users and joinable channels are checked as they are used, the rest a batch at a
 * time once the screen is up).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { act } from "react";
import { afterEach, expect, it } from "vitest";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { faultyWorld, type FaultyWorld } from "../fixtures/fault-proxy.js";
import { mountApp } from "./mount-app.js";

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function startWith(edit: (body: Record<string, unknown>) => Record<string, unknown>, where = { method: "POST", path: "register" }) {
  const world: FaultyWorld = await faultyWorld();
  cleanup.push(() => world.close());
  world.proxy.inject({ ...where, action: { kind: "rewrite", edit } });
  const stateDir = await mkdtemp(join(tmpdir(), "termchat-malformed-"));
  cleanup.push(() => rm(stateDir, { recursive: true, force: true }));
  const client = world.client();
  const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: world.owner.email }, stateDir });
  cleanup.push(() => session.dispose(1500));
  await session.machine.start();
  const instance = await mountApp(session);
  cleanup.push(async () => act(async () => instance.unmount()));
  for (let i = 0; i < 100 && !(instance.lastFrame() ?? "").includes("Left out"); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
  }
  expect(world.proxy.pendingFaults).toBe(0);
  return { frame: instance.lastFrame() ?? "", store: session.machine.store! };
}

it("starts with a malformed user left out, and says which", async () => {
  const { frame, store } = await startWith((body) => ({ ...body, members: [...(body.members as unknown[]), { user_id: 9999, email: null, full_name: "Broken" }] }), { method: "GET", path: "users" });
  expect(frame).toContain("Left out 1 malformed user (user 9999: email:");
  expect(frame).toMatch(/Inbox {2}\d+ unread/); // the client works
  expect(store.users.get(9999)).toBeUndefined();
});

it("starts with malformed channels one could join left out, and says how many", async () => {
  const { frame, store } = await startWith((body) => {
    const joinable = body.never_subscribed as Array<Record<string, unknown>>;
    const first = joinable[0]!;
    return { ...body, never_subscribed: [...joinable, { ...first, stream_id: 9001, name: 7 }, { stream_id: 9002 }] };
  });
  expect(frame).toContain("Left out 2 malformed channels (channel 9001: name:");
  expect(frame).toMatch(/Inbox {2}\d+ unread/);
  expect(store.channel(9001)).toBeUndefined();
  expect(store.channelsModel.neverSubscribed.size).toBeGreaterThan(0); // the valid ones are there
});
