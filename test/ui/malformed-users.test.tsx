/**
 * A server that sends a malformed user in register: the client starts anyway, with the user
 * left out, and says so in the status line (the register's users are checked as they are used,
 * the rest a batch at a time once the screen is up).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { act } from "react";
import { render } from "ink-testing-library";
import { afterEach, expect, it } from "vitest";
import { SyncSession } from "../../src/sync/session.js";
import { App } from "../../src/ui/App.js";
import { KeypressProvider } from "../../src/ui/hooks/use-keypress.js";
import { faultyWorld, type FaultyWorld } from "../fixtures/fault-proxy.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

it("starts with a malformed user left out, and says which", async () => {
  const world: FaultyWorld = await faultyWorld();
  cleanup.push(() => world.close());
  world.proxy.inject({
    method: "POST",
    path: "register",
    action: { kind: "rewrite", edit: (body) => ({ ...body, realm_users: [...(body.realm_users as unknown[]), { user_id: 9999, email: null, full_name: "Broken" }] }) },
  });
  const stateDir = await mkdtemp(join(tmpdir(), "termchat-malformed-"));
  cleanup.push(() => rm(stateDir, { recursive: true, force: true }));
  const client = world.client();
  const session = await SyncSession.open({ client, account: { site: client.site.href, email: world.owner.email }, stateDir });
  cleanup.push(() => session.dispose(1500));
  await session.machine.start();
  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(
      <KeypressProvider>
        <App session={session} color={false} />
      </KeypressProvider>,
    );
  });
  cleanup.push(async () => act(async () => instance.unmount()));
  for (let i = 0; i < 100 && !(instance.lastFrame() ?? "").includes("Left out"); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
  }
  const frame = instance.lastFrame() ?? "";
  expect(frame).toContain("Left out 1 malformed user (user 9999: email:");
  expect(frame).toMatch(/Inbox {2}\d+ unread/); // the client works
  expect(session.machine.store!.users.get(9999)).toBeUndefined();
  expect(world.proxy.pendingFaults).toBe(0);
});
