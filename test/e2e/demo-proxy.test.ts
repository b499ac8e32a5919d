/**
 * The demo behind a proxy: HTTPS_PROXY and HTTP_PROXY set (as on a machine whose network goes
 * through one) name a proxy that takes connections and never answers. The demo's server runs in
 * the same process, on loopback, where no proxy could reach it: the built binary connects to it
 * directly, draws the organization and takes keys, and the proxy never hears from it.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, freePort, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;
let proxy: Server | undefined;
const held = new Set<Socket>();

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
  for (const s of held) s.destroy();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  proxy = undefined;
});

describe("the demo with a proxy in the environment", () => {
  it("reaches its own server directly: the organization is drawn and the proxy hears nothing", async () => {
    let heard = 0;
    proxy = createServer((socket) => {
      heard++;
      held.add(socket);
      socket.on("close", () => held.delete(socket));
      socket.on("error", () => socket.destroy());
    });
    const at = await new Promise<number>((resolve) => proxy!.listen(0, "127.0.0.1", () => resolve((proxy!.address() as { port: number }).port)));
    const url = `http://127.0.0.1:${at}`;
    session = await startApp(["--demo", "--port", String(await freePort())], { env: { HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url } });
    await session.waitFor(/● connected/, { timeoutMs: 20_000 });
    await session.waitFor(/#design/);
    await session.sendKeys("Q");
    expect(await session.waitForExit({ timeoutMs: 10_000 })).toBe(0);
    expect(heard).toBe(0);
  });
});
