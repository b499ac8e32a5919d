// The service's Python bindings (0.8.2), replayed over real HTTP with their
// User-Agent and encoding: channel listing and lookup, the profile, a user's
// presence, custom emoji, linkifiers, alert words, per-account storage and
// the deprecated topic muting call, file upload and attachments. Each answer must fit the public API
// description; errors carry the service's words; changes reach the user's
// other clients as events.

import { beforeAll, describe, expect, it } from "vitest";
import type { DemoAccount, RunningServer } from "../../src/server/index.js";
import { responseProblems } from "../fixtures/openapi-shape.js";
import { pythonClient, type Json, type PyCall, type PyResponse } from "../fixtures/python-client.js";
import { account, client, pending, register, start, type Api } from "./server-test-client.js";

const USER_AGENT = "ZulipPython/0.8.2 (debian; 12)";

let server: RunningServer;
let member: DemoAccount;
let py: PyCall;
let api: Api;
let channels: Json[];

const as = (who: DemoAccount) => pythonClient(server.url, who.email, who.apiKey, USER_AGENT);

/** A success answer that fits the documented shape of `method template`. */
function fits(res: PyResponse, method: string, template: string): Json {
  expect(res.status, `${res.sent}\n${JSON.stringify(res.body).slice(0, 400)}`).toBe(200);
  expect(res.body).toMatchObject({ result: "success", msg: "" });
  expect(res.body["ignored_parameters_unsupported"], res.sent).toBeUndefined();
  const concrete = template.replace(/\{[^}]+\}/g, "1");
  expect(responseProblems(method, concrete, res.body), res.sent).toEqual([]);
  return res.body;
}

function fails(res: PyResponse, msg: string, code = "BAD_REQUEST"): void {
  expect(res.status, res.sent).toBe(400);
  expect(res.body).toMatchObject({ result: "error", code, msg });
}

beforeAll(async () => {
  server = await start();
  member = account(server, "member");
  py = as(member);
  api = client(server, member);
  channels = (await api("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[];
});

describe("channels", () => {
  it("get_streams with the include_* filters", async () => {
    const all = fits(await py("GET", "streams"), "GET", "/streams")["streams"] as Json[];
    const names = all.map((c) => c["name"] as string);
    expect(names).toEqual([...names].sort());
    const live = channels.filter((c) => c["is_archived"] !== true);
    for (const c of live) expect(names).toContain(c["name"]);
    // Archived channels only when asked for.
    const archived = channels.filter((c) => c["is_archived"] === true);
    expect(archived.length).toBeGreaterThan(0);
    for (const c of archived) expect(names).not.toContain(c["name"]);
    const withArchived = fits(await py("GET", "streams", { exclude_archived: false }), "GET", "/streams")["streams"] as Json[];
    for (const c of archived) expect(withArchived.map((x) => x["name"])).toContain(c["name"]);
    for (const c of all) expect(c["invite_only"] === false || channels.some((s) => s["stream_id"] === c["stream_id"])).toBe(true);

    const subscribedOnly = fits(await py("GET", "streams", { include_public: false }), "GET", "/streams")["streams"] as Json[];
    expect(subscribedOnly.map((c) => c["stream_id"]).sort()).toEqual(live.map((c) => c["stream_id"]).sort());
    const none = fits(await py("GET", "streams", { include_public: false, include_subscribed: false }), "GET", "/streams");
    expect(none["streams"]).toEqual([]);
    const webPublic = fits(await py("GET", "streams", { include_public: false, include_subscribed: false, include_web_public: true }), "GET", "/streams");
    for (const c of webPublic["streams"] as Json[]) expect(c["is_web_public"]).toBe(true);

    const withDefaults = fits(await py("GET", "streams", { include_default: true }), "GET", "/streams")["streams"] as Json[];
    for (const c of withDefaults) expect(typeof c["is_default"]).toBe("boolean");

    // A bot may list the channels its owner is subscribed to.
    const owner = server.accounts.find((a) => a.email.startsWith("ben@"))!;
    const ownerSubs = ((await client(server, owner)("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[])
      .filter((c) => c["is_archived"] !== true).map((c) => c["stream_id"] as number).sort();
    const bot = as(account(server, "bot"));
    const ownerOnly = { include_public: false, include_subscribed: false, include_owner_subscribed: true };
    const viaOwner = fits(await bot("GET", "streams", ownerOnly), "GET", "/streams")["streams"] as Json[];
    expect(viaOwner.map((c) => c["stream_id"] as number).sort()).toEqual(ownerSubs);
    expect(ownerSubs.length).toBeGreaterThan(0);
    // For an account that is no bot, the filter adds nothing.
    expect(fits(await py("GET", "streams", ownerOnly), "GET", "/streams")["streams"]).toEqual([]);

    fails(await py("GET", "streams", { include_all_active: true }), "User not authorized for this query");
    const admin = as(account(server, "admin"));
    const everything = fits(await admin("GET", "streams", { include_all_active: true }), "GET", "/streams")["streams"] as Json[];
    expect(everything.length).toBeGreaterThanOrEqual(all.length);
    expect(everything.some((c) => c["invite_only"] === true)).toBe(true);
  });

  it("get_stream_id, one channel and its email address", async () => {
    const first = channels.find((c) => c["is_archived"] !== true)!;
    const id = fits(await py("GET", `get_stream_id?stream=${encodeURIComponent(first["name"])}`), "GET", "/get_stream_id");
    expect(id["stream_id"]).toBe(first["stream_id"]);
    fails(await py("GET", "get_stream_id?stream=no%20such%20channel"), "Invalid channel name 'no such channel'");

    const one = fits(await py("GET", `streams/${first["stream_id"]}`), "GET", "/streams/{stream_id}");
    expect(one["stream"]).toMatchObject({ stream_id: first["stream_id"], name: first["name"] });
    fails(await py("GET", "streams/987654"), "Invalid channel ID");

    const email = fits(await py("GET", `streams/${first["stream_id"]}/email_address`), "GET", "/streams/{stream_id}/email_address");
    expect(email["email"]).toMatch(/^[^@\s]+@[^@\s]+$/);
    const mine = fits(await py("GET", `streams/${first["stream_id"]}/email_address`, { sender_id: member.userId }), "GET", "/streams/{stream_id}/email_address");
    expect(mine["email"]).not.toBe(email["email"]);
    fails(await py("GET", "streams/987654/email_address"), "Invalid channel ID");
  });
});

describe("users and organization data", () => {
  it("get_profile, get_user_presence, get_realm_emoji and get_realm_linkifiers", async () => {
    const me = fits(await py("GET", "users/me"), "GET", "/users/me");
    expect(me).toMatchObject({ user_id: member.userId, email: member.email, full_name: member.fullName });

    await py("POST", "users/me/presence", { status: "active", new_user_input: true });
    const presence = fits(await py("GET", `users/${member.email}/presence`), "GET", "/users/{user_id_or_email}/presence");
    expect(presence["presence"]).toHaveProperty("aggregated");

    const emoji = fits(await py("GET", "realm/emoji"), "GET", "/realm/emoji")["emoji"] as Json;
    expect(Object.values(emoji).map((e) => (e as Json)["name"])).toContain("lighthouse");
    const linkifiers = fits(await py("GET", "realm/linkifiers"), "GET", "/realm/linkifiers");
    expect(Array.isArray(linkifiers["linkifiers"])).toBe(true);
  });
});

describe("alert words", () => {
  it("add, list and remove (case-insensitive) with alert_words events to the user's other clients", async () => {
    const queue = await register(api, { event_types: ["alert_words"] });
    const added = fits(await py("POST", "users/me/alert_words", { alert_words: ["Deploy", "on call", " "] }), "POST", "/users/me/alert_words");
    expect(added["alert_words"]).toEqual(["Deploy", "on call"]);
    const again = fits(await py("POST", "users/me/alert_words", { alert_words: ["deploy", "outage"] }), "POST", "/users/me/alert_words");
    expect(again["alert_words"]).toEqual(["Deploy", "on call", "outage"]);
    const listed = fits(await py("GET", "users/me/alert_words"), "GET", "/users/me/alert_words");
    expect(listed["alert_words"]).toEqual(["Deploy", "on call", "outage"]);
    const removed = fits(await py("DELETE", "users/me/alert_words", { alert_words: ["DEPLOY", "absent"] }), "DELETE", "/users/me/alert_words");
    expect(removed["alert_words"]).toEqual(["on call", "outage"]);
    fails(await py("POST", "users/me/alert_words", { alert_words: ["x".repeat(101)] }), "alert_words[0] is too long (limit: 100 characters)");

    const events = await pending(api, queue["queue_id"]);
    expect(events.map((e) => e["alert_words"])).toEqual([["Deploy", "on call"], ["Deploy", "on call", "outage"], ["on call", "outage"]]);
    const reg = await register(api, { fetch_event_types: ["alert_words"] });
    expect(reg["alert_words"]).toEqual(["on call", "outage"]);
  });
});

describe("per-account storage", () => {
  it("update_storage, get_storage (some keys or all) and deleting keys", async () => {
    const bot = as(account(server, "bot"));
    const put = await bot("PUT", "bot_storage", { storage: { "entry 1": "value 1", "entry 2": "value 2", "entry 3": "value 3" } });
    expect(put.body).toEqual({ result: "success", msg: "" });
    const some = await bot("GET", "bot_storage", { keys: ["entry 1", "entry 3"] });
    expect(some.body).toEqual({ result: "success", msg: "", storage: { "entry 1": "value 1", "entry 3": "value 3" } });
    const all = await bot("GET", "bot_storage");
    expect(Object.keys(all.body["storage"] as Json)).toEqual(["entry 1", "entry 2", "entry 3"]);
    fails(await bot("GET", "bot_storage", { keys: ["entry 9"] }), "Key does not exist.");
    fails(await bot("DELETE", "bot_storage", { keys: ["entry 1", "entry 9"] }), "Key does not exist.");
    expect((await bot("DELETE", "bot_storage", { keys: ["entry 1"] })).body).toEqual({ result: "success", msg: "" });
    expect((await bot("GET", "bot_storage")).body["storage"]).toEqual({ "entry 2": "value 2", "entry 3": "value 3" });
    expect((await bot("DELETE", "bot_storage")).status).toBe(200);
    expect((await bot("GET", "bot_storage")).body["storage"]).toEqual({});
    fails(await bot("PUT", "bot_storage", { storage: { k: 5 } }), 'storage["k"] is not a string');
    fails(await bot("PUT", "bot_storage", {}), "Missing 'storage' argument", "REQUEST_VARIABLE_MISSING");
    // Each account has its own storage.
    expect((await py("GET", "bot_storage")).body["storage"]).toEqual({});
  });
});

describe("the deprecated mute_topic call", () => {
  it("mutes and unmutes by channel name or ID, with user_topic and muted_topics events", async () => {
    const first = channels.find((c) => c["is_archived"] !== true)!;
    const modern = await register(api, { event_types: ["user_topic"] });
    const legacy = await register(api, { event_types: ["muted_topics"] });
    const byName = await py("PATCH", "users/me/subscriptions/muted_topics", { stream: first["name"], topic: "Lunch", op: "add" });
    fits(byName, "PATCH", "/users/me/subscriptions/muted_topics");
    const reg = await register(api, { fetch_event_types: ["user_topic"] });
    expect(reg["user_topics"]).toContainEqual(expect.objectContaining({ stream_id: first["stream_id"], topic_name: "Lunch", visibility_policy: 1 }));
    const byId = await py("PATCH", "users/me/subscriptions/muted_topics", { stream_id: first["stream_id"], topic: "Lunch", op: "remove" });
    fits(byId, "PATCH", "/users/me/subscriptions/muted_topics");

    expect((await pending(api, modern["queue_id"])).map((e) => e["visibility_policy"])).toEqual([1, 0]);
    const lists = (await pending(api, legacy["queue_id"])).map((e) => e["muted_topics"] as unknown[][]);
    expect(lists).toHaveLength(2);
    expect(lists[0]).toContainEqual([first["name"], "Lunch", expect.any(Number)]);
    expect(lists[1]).not.toContainEqual([first["name"], "Lunch", expect.any(Number)]);

    fails(await py("PATCH", "users/me/subscriptions/muted_topics", { stream: first["name"], stream_id: first["stream_id"], topic: "t", op: "add" }),
      "Unsupported parameter combination: stream_id, stream");
    fails(await py("PATCH", "users/me/subscriptions/muted_topics", { stream: "no such channel", topic: "t", op: "add" }), "Invalid channel name 'no such channel'");
    fails(await py("PATCH", "users/me/subscriptions/muted_topics", { stream_id: first["stream_id"], topic: "t" }), "Missing 'op' argument", "REQUEST_VARIABLE_MISSING");
  });
});

describe("files", () => {
  it("upload_file as the bindings send it (the part named after the opened path), then get_attachments", async () => {
    // requests' multipart encoding: a uuid4-hex boundary, the field named after the file's path,
    // the file name its basename, no part Content-Type.
    const boundary = "5b3f0c9d2e6a4f1b8c7d9e0a1b2c3d4e";
    const data = "line one\nline two\n";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="/tmp/bot out/report.txt"; filename="report.txt"\r\n\r\n${data}\r\n--${boundary}--\r\n`;
    const res = await fetch(`${server.url}/api/v1/user_uploads`, {
      method: "POST",
      headers: {
        Authorization: "Basic " + Buffer.from(`${member.email}:${member.apiKey}`).toString("base64"),
        "User-Agent": USER_AGENT,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const uploaded = fits({ status: res.status, body: (await res.json()) as Json, sent: "POST user_uploads" }, "POST", "/user_uploads");
    expect(uploaded["filename"]).toBe("report.txt");
    const listed = fits(await py("GET", "attachments"), "GET", "/attachments");
    const mine = (listed["attachments"] as Json[]).find((a) => `/user_uploads/${a["path_id"] as string}` === uploaded["url"]);
    expect(mine).toMatchObject({ name: "report.txt", size: data.length, messages: [] });
    expect(listed["upload_space_used"]).toBeGreaterThanOrEqual(data.length);
  });
});
