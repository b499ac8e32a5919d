// The service's Python bindings (0.8.2) have no method of their own for
// scheduled messages, reminders, read receipts or navigation views; a script
// reaches them through `call_endpoint`, which encodes every value that is not
// text with json.dumps. Replayed here with their User-Agent and encoding:
// each call is answered as the service answers it.

import { beforeAll, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { responseProblems } from "../fixtures/openapi-shape.js";
import { pythonClient, type Json, type PyCall, type PyResponse } from "../fixtures/python-client.js";
import { account, start } from "./server-test-client.js";

const USER_AGENT = "ZulipPython/0.8.2 (debian; 12)";

let server: RunningServer;
let py: PyCall;
let general: number;

beforeAll(async () => {
  server = await start();
  const member = account(server, "member");
  py = pythonClient(server.url, member.email, member.apiKey, USER_AGENT);
  const subs = (await py("GET", "users/me/subscriptions")).body["subscriptions"] as Json[];
  general = subs.find((s) => s["name"] === "general")!["stream_id"];
});

/** A success answer, shaped as documented when `method template` names an operation of the public description. */
function ok(res: PyResponse, method?: string, template?: string): Json {
  expect(res.status, `${res.sent}\n${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
  expect(res.body["ignored_parameters_unsupported"], res.sent).toBeUndefined();
  if (method && template) expect(responseProblems(method, template.replace(/\{[^}]+\}/g, "1"), res.body), res.sent).toEqual([]);
  return res.body;
}

it("schedules, lists, edits and cancels a message through call_endpoint", async () => {
  const at = Math.floor(Date.now() / 1000) + 3600;
  const created = ok(await py("POST", "scheduled_messages", { type: "stream", to: general, topic: "from a script", content: "nightly report", scheduled_delivery_timestamp: at, read_by_sender: true }), "POST", "/scheduled_messages");
  const id = created["scheduled_message_id"] as number;
  const listed = ok(await py("GET", "scheduled_messages"), "GET", "/scheduled_messages")["scheduled_messages"] as Json[];
  expect(listed.find((s) => s["scheduled_message_id"] === id)).toMatchObject({ to: general, topic: "from a script", scheduled_delivery_timestamp: at });
  ok(await py("PATCH", `scheduled_messages/${id}`, { content: "nightly report (v2)", scheduled_delivery_timestamp: at + 60 }), "PATCH", "/scheduled_messages/{scheduled_message_id}");
  ok(await py("DELETE", `scheduled_messages/${id}`), "DELETE", "/scheduled_messages/{scheduled_message_id}");
  expect(await py("DELETE", `scheduled_messages/${id}`)).toMatchObject({ status: 404, body: { code: "BAD_REQUEST", msg: "Scheduled message does not exist" } });
});

it("sets a reminder, reads read receipts and pins a navigation view", async () => {
  const sent = ok(await py("POST", "messages", { type: "stream", to: "general", topic: "from a script", content: "remind me" }));
  const id = sent["id"] as number;
  const reminder = ok(await py("POST", "reminders", { message_id: id, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 600 }));
  expect(typeof reminder["reminder_id"]).toBe("number");
  expect(ok(await py("GET", "reminders"))["reminders"]).toEqual([expect.objectContaining({ reminder_id: reminder["reminder_id"], reminder_target_message_id: id })]);
  expect(ok(await py("GET", `messages/${id}/read_receipts`), "GET", "/messages/{message_id}/read_receipts")["user_ids"]).toEqual([]);
  ok(await py("POST", "navigation_views", { fragment: "narrow/is/starred", is_pinned: false }));
  expect(ok(await py("GET", "navigation_views"))["navigation_views"]).toEqual([{ fragment: "narrow/is/starred", is_pinned: false }]);
});
