/**
 * A compression bomb through the built binary: the server's proxy answers a poll with gzip that
 * decompresses to more than 1 GiB. The status line says in one line that the answer was cut
 * off, the client registers again, and messages sent afterwards arrive; the process stays well
 * below the bomb's size the whole time. (The same for trickling answers and batches of 100,000
 * events, on the sync layer: test/integration/sync-hostile-answers.test.ts.)
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { faultyWorld, type FaultyWorld } from "../fixtures/fault-proxy.js";
import { gzipBomb } from "../fixtures/hostile-content.js";
import { eventually } from "../fixtures/server.js";
import { apiAs, ensureBuilt, startClientOn } from "./app.js";

let world: FaultyWorld | undefined;
let client: Awaited<ReturnType<typeof startClientOn>> | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await client?.done();
  client = undefined;
  await world?.close();
  world = undefined;
});

describe("an answer that decompresses to more than 1 GiB", () => {
  it("is cut off with one line in the status line; the client registers again and goes on", async () => {
    world = await faultyWorld({ heartbeatMs: 2000 });
    client = await startClientOn(world.proxy.url, world.owner, { cols: 160, rows: 30 });
    const { session } = client;
    await session.waitFor(/connected/, { timeoutMs: 15_000 });
    const site = `http://127.0.0.1:${world.server!.port}`;
    const ben = await apiAs(site, "ben@lighthouse.test");
    const registers = world.proxy.count("POST", "register");

    world.proxy.inject({ method: "GET", path: "events", action: { kind: "bytes", body: gzipBomb(1100 * 1024 * 1024), headers: { "content-encoding": "gzip" } } });
    // Something happens, so the poll under way is answered and the next one meets the bomb.
    await ben("POST", "messages", { type: "stream", to: "general", topic: "bombs", content: "before the bomb" });
    // Said in the status line while reconnecting, and kept there as a notice until a key is pressed.
    await session.waitFor(/^GET events: answer over 64 MiB once decompressed, cut off {2,}Lighthouse Labs/m, { timeoutMs: 15_000 });
    const pid = await session.pid();
    const peakKiB = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    expect(peakKiB).toBeLessThan(512 * 1024); // far below the bomb's 1.1 GiB

    await eventually(() => world!.proxy.count("POST", "register") > registers, 30_000);
    await ben("POST", "messages", { type: "stream", to: "general", topic: "bombs", content: "after the bomb" });
    await session.sendKeys("a");
    await session.sendKeys("G");
    await session.waitFor("after the bomb", { timeoutMs: 15_000 });
    await session.waitFor(/● connected/, { timeoutMs: 15_000 });
    expect(await session.isAlive()).toBe(true);
  }, 90_000);
});
