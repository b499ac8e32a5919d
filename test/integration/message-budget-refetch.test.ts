/** A narrow whose messages the budget dropped is fetched again from the server when shown again. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { narrowMessages } from "../../src/model/selectors.js";
import { Commands } from "../../src/sync/commands.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
let machine: UpdateMachine | undefined;

beforeEach(async () => {
  ctx = await withServer({ heartbeatMs: 200 });
});

afterEach(async () => {
  await machine?.stop();
  await ctx.close();
});

describe("message budget and the server", () => {
  it("drops a narrow left long ago and refetches it on return", async () => {
    machine = new UpdateMachine(ctx.client(), { backoff: { baseMs: 10, maxMs: 50 } });
    const store = await machine.start();
    const commands = new Commands(machine);
    const withMessages = [...store.channels.values()].map((c) => ({ kind: "channel" as const, channelId: c.stream_id }));
    await commands.loadNarrow(withMessages[0]!);
    const first = narrowMessages(store, withMessages[0]!).map((m) => m.content);
    expect(first.length).toBeGreaterThan(0);

    store.messageBudget.setBudget(1); // nothing but the list on screen fits
    await commands.loadNarrow(withMessages[1]!);
    expect(store.messages.list(withMessages[0]!)).toBeUndefined();
    expect(store.messages.list(withMessages[1]!)).toBeDefined();

    await commands.loadNarrow(withMessages[0]!);
    expect(narrowMessages(store, withMessages[0]!).map((m) => m.content)).toEqual(first);
    expect(store.messages.list(withMessages[1]!)).toBeUndefined();
    commands.dispose();
  });
});
