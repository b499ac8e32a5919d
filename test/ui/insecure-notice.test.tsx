/**
 * With TLS verification turned off (the zuliprc's insecure=true) the status line
 * says so at start, on top of the warning the CLI prints on stderr.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { act } from "react";
import { afterEach, expect, it } from "vitest";
import { INSECURE_NOTE } from "../../src/cli/tls-files.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { withServer } from "../fixtures/server.js";
import { mountApp } from "./mount-app.js";

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

it("shows the insecure-TLS warning on the status line at start", async () => {
  const ctx = await withServer();
  cleanup.push(() => ctx.close());
  const stateDir = await mkdtemp(join(tmpdir(), "termchat-insecure-"));
  cleanup.push(() => rm(stateDir, { recursive: true, force: true }));
  const client = ctx.client();
  const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: client.email }, stateDir });
  cleanup.push(() => session.dispose(1500));
  await session.machine.start();
  const instance = await mountApp(session, { startNotice: { text: INSECURE_NOTE, kind: "error" } });
  cleanup.push(async () => act(async () => instance.unmount()));
  const note = INSECURE_NOTE.slice(0, 30);
  const deadline = Date.now() + 8000;
  for (let i = 0; i < 400 && Date.now() < deadline && !(instance.lastFrame() ?? "").includes(note); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
  }
  expect(instance.lastFrame() ?? "").toContain(note);
});
