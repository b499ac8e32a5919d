// Reference server: message reminders over HTTP, on a clock the test steps.
// Set, listed and cancelled with `reminders` events to the user's clients;
// at their time the notification bot sends them as a direct message quoting
// the message, and they leave the list.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Harness, expectError, type Client, type Json } from "../fixtures/server-client.js";

let clock = Date.UTC(2026, 1, 2, 9, 0, 0);
const nowSecs = () => Math.floor(clock / 1000);
let h: Harness;
let maya: Client;
let omar: Client;
let lena: Client;
let general: number;

beforeAll(async () => {
  h = await Harness.start({ now: () => clock, queueIdleMs: 7 * 86400_000 });
  maya = h.as(h.account("owner"));
  omar = h.as(h.account("member", 0));
  lena = h.as(h.account("member", 1));
  const subs = (await omar.call("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[];
  general = subs.find((s) => s["name"] === "general")!["stream_id"];
});
afterAll(async () => {
  expect(h.conformanceProblems()).toEqual([]);
  await h.close();
});
beforeEach(() => {
  clock += 3600_000;
});

const remind = (who: Client, params: Record<string, unknown>) => who.call("POST", "/reminders", params);
const reminders = async (who: Client): Promise<Json[]> => (await who.call("GET", "/reminders")).body["reminders"];

async function send(who: Client, params: Record<string, unknown>): Promise<number> {
  const res = await who.call("POST", "/messages", params);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body["id"];
}

describe("reminders", () => {
  it("are set, listed by time and cancelled, with events to the user's clients only", async () => {
    const target = await send(lena, { type: "stream", to: general, topic: "offsite", content: "Venue ideas, anyone?" });
    const mine = await omar.queue(["reminders"]);
    const others = await lena.queue(["reminders"]);
    const at = nowSecs() + 3600;
    const late = (await remind(omar, { message_id: target, scheduled_delivery_timestamp: at + 60 })).body["reminder_id"];
    const early = (await remind(omar, { message_id: target, scheduled_delivery_timestamp: at, note: "book one\n" })).body["reminder_id"];
    const listed = await reminders(omar);
    expect(listed.map((r) => r["reminder_id"])).toEqual([early, late]);
    expect(listed[0]).toMatchObject({ to: [omar.id], type: "private", scheduled_delivery_timestamp: at, failed: false, reminder_target_message_id: target });
    expect(listed[0]!["content"]).toMatch(/^You requested a reminder for the following message\. Note:\n > book one\n\n@_\*\*Lena [^|]+\|\d+\*\* \[said\]\(http:\/\/127\.0\.0\.1:\d+\/#narrow\/channel\/\d+-general\/topic\/offsite\/near\/\d+\) in #\*\*general>offsite@\d+\*\*:\n```quote\nVenue ideas, anyone\?\n```$/);
    expect(listed[0]!["rendered_content"]).toContain("<blockquote>");
    const added = await mine.drain();
    expect(added.map((e) => [e["type"], e["op"], e["reminders"][0]["reminder_id"]])).toEqual([["reminders", "add", late], ["reminders", "add", early]]);
    expect(await others.drain()).toEqual([]);
    expect(await reminders(lena)).toEqual([]);
    const reg = await omar.call("POST", "/register", { fetch_event_types: ["reminders", "scheduled_messages"] });
    expect((reg.body["reminders"] as Json[]).map((r) => r["reminder_id"])).toEqual([early, late]);
    expect(reg.body["scheduled_messages"]).toEqual([]); // reminders are not scheduled messages
    expect(await omar.call("GET", "/scheduled_messages")).toMatchObject({ body: { scheduled_messages: [] } });

    expectError(await lena.call("DELETE", `/reminders/${late}`), "BAD_REQUEST", "Reminder does not exist", 404);
    expectError(await omar.call("DELETE", `/scheduled_messages/${late}`), "BAD_REQUEST", "Scheduled message does not exist", 404);
    for (const id of [late, early]) expect((await omar.call("DELETE", `/reminders/${id}`)).status).toBe(200);
    expect((await mine.drain()).map((e) => [e["op"], e["reminder_id"]])).toEqual([["remove", late], ["remove", early]]);
    expectError(await omar.call("DELETE", `/reminders/${late}`), "BAD_REQUEST", "Reminder does not exist", 404);
  });

  it("refuses a past time, a message one cannot read and a note too long", async () => {
    const dm = await send(maya, { type: "direct", to: [lena.id], content: "between us" });
    const at = nowSecs() + 60;
    expectError(await remind(omar, { message_id: dm, scheduled_delivery_timestamp: nowSecs() }), "BAD_REQUEST", "Scheduled delivery time must be in the future.");
    expectError(await remind(omar, { message_id: dm, scheduled_delivery_timestamp: at }), "BAD_REQUEST", "Invalid message(s)");
    expectError(await remind(lena, { message_id: dm, scheduled_delivery_timestamp: at, note: "x".repeat(1001) }), "BAD_REQUEST", "Maximum reminder note length: 1000 characters");
    expectError(await remind(lena, { scheduled_delivery_timestamp: at }), "REQUEST_VARIABLE_MISSING");
    const reg = await lena.call("POST", "/register", { fetch_event_types: ["realm"] });
    expect(reg.body["max_reminder_note_length"]).toBe(1000);
  });

  it("arrive at their time as a direct message from the notification bot, and leave the list", async () => {
    const target = await send(maya, { type: "direct", to: [lena.id], content: "Send me the deck by Friday" });
    const q = await lena.queue(["message", "reminders"]);
    const at = nowSecs() + 300;
    const id = (await remind(lena, { message_id: target, scheduled_delivery_timestamp: at })).body["reminder_id"];
    await q.drain();
    clock = at * 1000;
    const events = await q.drainUntil((e) => e["type"] === "reminders" && e["op"] === "remove");
    expect(events.map((e) => `${e["type"]}/${e["op"] ?? ""}`)).toEqual(["message/", "reminders/remove"]);
    const message = events[0]!["message"];
    expect(message["sender_email"]).toMatch(/^notification-bot@/);
    expect(message["type"]).toBe("private");
    expect((message["display_recipient"] as Json[]).map((r) => r["id"])).toContain(lena.id);
    expect(message["content"]).toContain("You requested a reminder for the following direct message.");
    expect(message["content"]).toContain(`[said](${h.server.url}/#narrow/dm/`);
    expect(message["content"]).toContain("```quote\nSend me the deck by Friday\n```");
    expect(events[0]!["flags"]).not.toContain("read");
    expect(events[1]!["reminder_id"]).toBe(id);
    expect(await reminders(lena)).toEqual([]);
  });

  it("quote the message as it was when it can no longer be read", async () => {
    const target = await send(omar, { type: "stream", to: general, topic: "gone", content: "soon deleted" });
    const at = nowSecs() + 60;
    await remind(lena, { message_id: target, scheduled_delivery_timestamp: at });
    expect((await omar.call("DELETE", `/messages/${target}`)).status).toBe(200);
    const q = await lena.queue(["message"]);
    clock = at * 1000;
    const message = (await q.drainUntil((e) => e["type"] === "message"))[0]!["message"];
    expect(message["content"]).toContain("```quote\nsoon deleted\n```");
  });
});
