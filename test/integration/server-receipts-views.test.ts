// Reference server: read receipts (who has read a message, the organization's
// setting that turns them off and the personal one that hides oneself) and
// navigation views (the user's pinned and custom views, with their events).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed/index.js";
import { readerIds } from "../../src/server/routes/read-receipts.js";
import { Harness, expectError, type Client, type Json } from "../fixtures/server-client.js";

let h: Harness;
let maya: Client; // owner
let ben: Client; // administrator
let omar: Client; // member
let lena: Client; // member
let hana: Client; // member

beforeAll(async () => {
  h = await Harness.start();
  maya = h.as(h.account("owner"));
  ben = h.as(h.account("admin"));
  omar = h.as(h.account("member", 0));
  lena = h.as(h.account("member", 1));
  hana = h.as(h.account("member", 3));
});
afterAll(async () => {
  expect(h.conformanceProblems()).toEqual([]);
  await h.close();
});

async function send(who: Client, params: Record<string, unknown>): Promise<number> {
  const res = await who.call("POST", "/messages", params);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body["id"];
}
const receipts = (who: Client, id: number) => who.call("GET", `/messages/${id}/read_receipts`);
const markRead = (who: Client, id: number, op: "add" | "remove" = "add") => who.call("POST", "/messages/flags", { messages: [id], op, flag: "read" });

describe("read receipts", () => {
  it("list a reader once they mark the message read, never the sender; unread again takes them off", async () => {
    const id = await send(omar, { type: "stream", to: "general", topic: "receipts", content: "read me" });
    expect((await receipts(maya, id)).body).toMatchObject({ result: "success", user_ids: [] });
    await markRead(lena, id);
    await markRead(hana, id);
    expect((await receipts(maya, id)).body["user_ids"]).toEqual([lena.id, hana.id].sort((a, b) => a - b));
    expect((await receipts(omar, id)).body["user_ids"]).not.toContain(omar.id);
    await markRead(hana, id, "remove");
    expect((await receipts(lena, id)).body["user_ids"]).toEqual([lena.id]);
  });

  it("refuse a message the asker cannot read", async () => {
    const dm = await send(maya, { type: "direct", to: [ben.id], content: "private" });
    expectError(await receipts(omar, dm), "BAD_REQUEST", "Invalid message(s)");
    expectError(await receipts(omar, 99_999_999), "BAD_REQUEST", "Invalid message(s)");
  });

  it("leave out whoever does not share read receipts", () => {
    const { state } = seed("demo", Date.UTC(2026, 0, 1));
    const message = state.messages.find((m) => readerIds(state, m).filter((id) => state.userSettings.has(id)).length > 1)!;
    const readers = readerIds(state, message);
    const hidden = readers.find((id) => state.userSettings.has(id))!;
    state.userSettings.get(hidden)!["send_read_receipts"] = false;
    expect(readerIds(state, message)).toEqual(readers.filter((id) => id !== hidden));
  });

  it("are turned off and on by an administrator: a realm event to everyone, and a clear error while off", async () => {
    const id = await send(omar, { type: "stream", to: "general", topic: "receipts", content: "off and on" });
    const q = await lena.queue(["realm"]);
    expectError(await omar.call("PATCH", "/realm", { enable_read_receipts: false }), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    expect((await ben.call("PATCH", "/realm", { enable_read_receipts: false })).status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ type: "realm", op: "update", property: "enable_read_receipts", value: false })]);
    expectError(await receipts(maya, id), "BAD_REQUEST", "Read receipts are disabled in this organization.");
    const reg = await lena.call("POST", "/register", { fetch_event_types: ["realm"] });
    expect(reg.body["realm_enable_read_receipts"]).toBe(false);
    const other = await ben.call("PATCH", "/realm", { enable_read_receipts: true, name: "Elsewhere" });
    expect(other.body["ignored_parameters_unsupported"]).toEqual(["name"]);
    expect((await receipts(maya, id)).status).toBe(200);
  });
});

describe("navigation views", () => {
  const add = (who: Client, params: Record<string, unknown>) => who.call("POST", "/navigation_views", params);
  const views = async (who: Client): Promise<Json[]> => (await who.call("GET", "/navigation_views")).body["navigation_views"];

  it("pin built-in views and add named custom ones, with events to the user's other clients", async () => {
    const mine = await lena.queue(["navigation_view"]);
    const others = await omar.queue(["navigation_view"]);
    expect(await views(lena)).toEqual([]);
    expect((await add(lena, { fragment: "recent", is_pinned: false })).status).toBe(200);
    expect((await add(lena, { fragment: "narrow/is/alerted", is_pinned: true, name: " Alert words " })).status).toBe(200);
    expect(await views(lena)).toEqual([
      { fragment: "recent", is_pinned: false },
      { fragment: "narrow/is/alerted", is_pinned: true, name: "Alert words" },
    ]);
    // A fragment holds slashes: either sent as they are or escaped.
    expect((await lena.call("PATCH", "/navigation_views/narrow/is/alerted", { name: "Watched phrases" })).status).toBe(200);
    expect((await lena.call("PATCH", `/navigation_views/${encodeURIComponent("narrow/is/alerted")}`, { is_pinned: false })).status).toBe(200);
    expect((await lena.call("DELETE", "/navigation_views/recent")).status).toBe(200);
    expect(await mine.drain()).toEqual([
      expect.objectContaining({ type: "navigation_view", op: "add", navigation_view: { fragment: "recent", is_pinned: false } }),
      expect.objectContaining({ op: "add", navigation_view: { fragment: "narrow/is/alerted", is_pinned: true, name: "Alert words" } }),
      expect.objectContaining({ op: "update", fragment: "narrow/is/alerted", data: { name: "Watched phrases" } }),
      expect.objectContaining({ op: "update", fragment: "narrow/is/alerted", data: { is_pinned: false } }),
      expect.objectContaining({ op: "remove", fragment: "recent" }),
    ]);
    expect(await others.drain()).toEqual([]);
    expect(await views(omar)).toEqual([]);
    const reg = await lena.call("POST", "/register", { fetch_event_types: ["navigation_views"] });
    expect(reg.body["navigation_views"]).toEqual([{ fragment: "narrow/is/alerted", is_pinned: false, name: "Watched phrases" }]);
  });

  it("refuse names on built-in views, custom views without one, repeats and unknown views", async () => {
    expectError(await add(hana, { fragment: "inbox", is_pinned: true, name: "Mine" }), "BAD_REQUEST", "Built-in views cannot have a custom name.");
    expectError(await add(hana, { fragment: "narrow/is/dm", is_pinned: true }), "BAD_REQUEST", "Custom views must have a valid name.");
    expectError(await add(hana, { fragment: " ", is_pinned: true }), "BAD_REQUEST", "fragment cannot be blank");
    expectError(await add(hana, { fragment: "inbox" }), "REQUEST_VARIABLE_MISSING");
    expect((await add(hana, { fragment: "narrow/is/dm", is_pinned: true, name: "DMs" })).status).toBe(200);
    expectError(await add(hana, { fragment: "narrow/is/dm", is_pinned: false, name: "Other" }), "BAD_REQUEST", "Navigation view already exists.");
    expectError(await add(hana, { fragment: "narrow/is/unread", is_pinned: false, name: "DMs" }), "BAD_REQUEST", "Navigation view already exists.");
    expect((await add(hana, { fragment: "inbox", is_pinned: true })).status).toBe(200);
    expectError(await hana.call("PATCH", "/navigation_views/inbox", { name: "Box" }), "BAD_REQUEST", "Built-in views cannot have a custom name.");
    expectError(await hana.call("PATCH", "/navigation_views/narrow/is/dm", { name: "DMs" }), "BAD_REQUEST", "Navigation view already exists.");
    expectError(await hana.call("PATCH", "/navigation_views/nowhere", { is_pinned: true }), "BAD_REQUEST", "Navigation view does not exist.", 404);
    expectError(await omar.call("DELETE", "/navigation_views/narrow/is/dm"), "BAD_REQUEST", "Navigation view does not exist.", 404);
  });
});
