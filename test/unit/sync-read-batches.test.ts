/**
 * Read marks go to the server in batches (src/sync/commands.ts): only what the
 * store still holds unread when the batch leaves, so a rebuild or a read made
 * elsewhere meanwhile sends nothing again; a batch the network lost is sent
 * again, a refused one is not.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RETRY } from "../../src/api/http.js";
import { Commands } from "../../src/sync/commands.js";
import type { UpdateMachine } from "../../src/sync/update-machine.js";
import type { Store } from "../../src/model/store.js";
import * as eg from "../fixtures/example.js";
import { fakeConnection } from "../fixtures/fake-connection.js";

let conn: ReturnType<typeof fakeConnection>;
let commands: Commands | undefined;

beforeEach(() => {
  eg.resetIds();
  conn = fakeConnection();
});
afterEach(async () => {
  commands?.dispose();
  commands = undefined;
  await conn.close();
});

function setup(): { store: Store; ids: number[]; machine: { store: Store | undefined; client: unknown } } {
  const messages = [eg.streamMessage(), eg.streamMessage(), eg.streamMessage()];
  const store = eg.store({ unread_msgs: eg.unreadMessages(messages.slice(0, 2)) });
  const machine = { store: store as Store | undefined, client: conn.client };
  commands = new Commands(machine as unknown as UpdateMachine);
  return { store, ids: messages.map((m) => m.id), machine };
}
const sent = () => conn.requests.filter((r) => r.path === "/api/v1/messages/flags").map((r) => JSON.parse(r.form.get("messages") ?? "[]") as number[]);

describe("read batches", () => {
  it("sends only what is unread, once, in one request", async () => {
    const { ids } = setup();
    commands!.markRead(ids);
    commands!.markRead(ids);
    expect(commands!.pendingReads).toBe(2);
    await commands!.flushRead();
    expect(sent()).toEqual([[ids[0], ids[1]]]);
    expect(conn.last().form.get("flag")).toBe("read");
  });

  it("leaves out what is no longer unread when the batch leaves (a rebuild, a read elsewhere)", async () => {
    const { store, ids, machine } = setup();
    commands!.markRead(ids);
    eg.apply(store, eg.flagsEvent("add", "read", [ids[0]!]));
    await commands!.flushRead();
    expect(sent()).toEqual([[ids[1]]]);

    // A new store (the queue was lost and registered again) in which nothing is unread any more.
    commands!.markRead([ids[1]!]);
    machine.store = eg.store();
    await commands!.flushRead();
    expect(sent()).toHaveLength(1);
  });

  it("sends a batch the network lost again, and drops one the server refused", async () => {
    const { ids } = setup();
    // Unavailable through all of the request's own retries (DEFAULT_RETRY: 4 attempts).
    for (let i = 0; i < DEFAULT_RETRY.attempts; i++) conn.prepare({ status: 503, body: "unavailable" });
    commands!.markRead(ids);
    await commands!.flushRead();
    expect(commands!.pendingReads).toBe(2);
    await commands!.flushRead();
    expect(sent()).toHaveLength(DEFAULT_RETRY.attempts + 1);
    expect(sent().at(-1)).toEqual([ids[0], ids[1]]);
    expect(commands!.pendingReads).toBe(0);

    conn.prepare({ status: 400, body: { result: "error", code: "BAD_REQUEST", msg: "Invalid message(s)" } });
    commands!.markRead(ids);
    await commands!.flushRead();
    expect(commands!.pendingReads).toBe(0);
  });
});
