/**
 * Conformance with the public API description (the derived facts in test/fixtures/reference/,
 * feature level 372): every 200 example of every operation termchat calls
 * passes our response schema, every event example parses as its own type,
 * and every documented error example becomes an ApiError with its code.
 */
import { MockAgent } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import type * as z from "zod";
import { ApiClient, ApiError } from "../../src/api/index.js";
import { eventsResponseSchema, parseEvent } from "../../src/api/schemas/events.js";
import { registerResponseSchema } from "../../src/api/schemas/register.js";
import * as R from "../../src/api/schemas/responses.js";
import * as RC from "../../src/api/schemas/responses-channels.js";
import * as RU from "../../src/api/schemas/responses-users.js";
import * as S from "../../src/api/schemas/scheduled.js";
import {
  errorStatuses,
  eventVariants,
  responseExamples,
  toServiceNames,
  type HttpMethod,
} from "../fixtures/openapi.js";

/** `METHOD /path` as written in the OpenAPI file → the schema our route validates with. */
const OPERATIONS: Record<string, z.ZodType> = {
  "POST /fetch_api_key": R.fetchApiKeyResponseSchema,
  "POST /register": registerResponseSchema,
  "GET /events": eventsResponseSchema,
  "DELETE /events": R.emptySuccessSchema,
  "GET /messages": R.getMessagesResponseSchema,
  "POST /messages": R.sendMessageResponseSchema,
  "GET /messages/{message_id}": R.getMessageResponseSchema,
  "PATCH /messages/{message_id}": R.updateMessageResponseSchema,
  "DELETE /messages/{message_id}": R.emptySuccessSchema,
  "GET /messages/{message_id}/history": R.messageHistoryResponseSchema,
  "GET /messages/matches_narrow": R.matchesNarrowResponseSchema,
  "POST /messages/flags": R.updateFlagsResponseSchema,
  "POST /messages/flags/narrow": R.updateFlagsForNarrowResponseSchema,
  "POST /mark_all_as_read": R.markAllAsReadResponseSchema,
  "POST /mark_stream_as_read": R.emptySuccessSchema,
  "POST /mark_topic_as_read": R.emptySuccessSchema,
  "POST /messages/{message_id}/reactions": R.emptySuccessSchema,
  "DELETE /messages/{message_id}/reactions": R.emptySuccessSchema,
  "POST /typing": R.emptySuccessSchema,
  "GET /users/me/{stream_id}/topics": R.topicsResponseSchema,
  "PATCH /streams/{stream_id}": R.emptySuccessSchema,
  "GET /get_stream_id": RC.getChannelIdResponseSchema,
  "GET /users/me/subscriptions": RC.getSubscriptionsResponseSchema,
  "POST /users/me/subscriptions": RC.subscribeResponseSchema,
  "DELETE /users/me/subscriptions": RC.unsubscribeResponseSchema,
  "POST /users/me/subscriptions/properties": R.emptySuccessSchema,
  "POST /user_topics": R.emptySuccessSchema,
  "GET /drafts": RC.getDraftsResponseSchema,
  "POST /drafts": RC.createDraftsResponseSchema,
  "PATCH /drafts/{draft_id}": R.emptySuccessSchema,
  "DELETE /drafts/{draft_id}": R.emptySuccessSchema,
  "GET /saved_snippets": RC.getSavedSnippetsResponseSchema,
  "POST /saved_snippets": RC.createSavedSnippetResponseSchema,
  "PATCH /saved_snippets/{saved_snippet_id}": R.emptySuccessSchema,
  "DELETE /saved_snippets/{saved_snippet_id}": R.emptySuccessSchema,
  "GET /scheduled_messages": S.getScheduledMessagesResponseSchema,
  "POST /scheduled_messages": S.createScheduledMessageResponseSchema,
  "PATCH /scheduled_messages/{scheduled_message_id}": R.emptySuccessSchema,
  "DELETE /scheduled_messages/{scheduled_message_id}": R.emptySuccessSchema,
  "GET /messages/{message_id}/read_receipts": S.readReceiptsResponseSchema,
  "GET /users": RU.getUsersResponseSchema,
  "GET /users/me": RU.getOwnUserResponseSchema,
  "GET /users/{user_id}": RU.getUserResponseSchema,
  "GET /users/{email}": RU.getUserResponseSchema,
  "DELETE /users/{user_id}": R.emptySuccessSchema,
  "POST /users/me/status": R.emptySuccessSchema,
  "GET /users/{user_id}/status": RU.getUserStatusResponseSchema,
  "POST /users/me/presence": RU.updatePresenceResponseSchema,
  "GET /realm/presence": RU.getPresenceResponseSchema,
  "GET /users/{user_id_or_email}/presence": RU.getUserPresenceResponseSchema,
  "POST /user_groups/create": RU.createUserGroupResponseSchema,
  "POST /users/me/apns_device_token": R.emptySuccessSchema,
  "DELETE /users/me/apns_device_token": R.emptySuccessSchema,
  "GET /server_settings": RU.serverSettingsResponseSchema,
};

/**
 * Event variants termchat deliberately leaves as `{type: "unknown"}` (the
 * model ignores them). Key: `type` or `type/op`.
 */
const DELIBERATELY_UNKNOWN: Record<string, string> = {
  has_zoom_token: "video-call integrations: a terminal client has no call button",
  invites_changed: "invitation management is an administrator screen termchat does not have",
  "attachment/add": "the user's list of uploads is not shown in termchat",
  "attachment/update": "the user's list of uploads is not shown in termchat",
  "attachment/remove": "the user's list of uploads is not shown in termchat",
  default_stream_groups: "organization defaults for new users: administration",
  default_streams: "organization defaults for new users: administration",
  muted_topics: "deprecated, superseded by user_topic (which is read)",
  onboarding_steps: "web-app onboarding hints",
  realm_filters: "legacy linkifier format; with linkifier_url_template the server sends realm_linkifiers (read)",
  realm_playgrounds: "code playgrounds open a browser tool; not offered in a terminal",
  "realm_domains/add": "administration (allowed sign-up domains)",
  "realm_domains/change": "administration (allowed sign-up domains)",
  "realm_domains/remove": "administration (allowed sign-up domains)",
  realm_export: "administration (data exports)",
  realm_export_consent: "administration (data exports)",
  "realm_bot/add": "bot management (bot API keys, outgoing-webhook services) is not offered in termchat",
  "realm_bot/update": "bot management (bot API keys, outgoing-webhook services) is not offered in termchat",
  "realm_bot/remove": "bot management is not offered (bots are users: realm_user events are read)",
  "realm_bot/delete": "bot management is not offered (bots are users: realm_user events are read)",
  web_reload_client: "asks the web app to reload its code; termchat has none to reload (restart is read)",
  "realm_user_settings_defaults/update": "defaults for new users: administration",
};

function split(op: string): [HttpMethod, string] {
  const [m, p] = op.split(" ");
  return [(m as string).toLowerCase() as HttpMethod, p as string];
}

describe("public 200 examples pass our response schemas", () => {
  for (const [op, schema] of Object.entries(OPERATIONS)) {
    it(op, () => {
      const [method, path] = split(op);
      const examples = responseExamples(path, method);
      expect(examples.length, `${op} has no 200 example`).toBeGreaterThan(0);
      for (const ex of examples) {
        const parsed = schema.safeParse(toServiceNames(ex));
        expect(parsed.success ? [] : parsed.error.issues, JSON.stringify(ex).slice(0, 200)).toEqual([]);
      }
    });
  }

  it("keeps ignored_parameters_unsupported in the parsed response", () => {
    const [ex] = responseExamples("/users/me/subscriptions/properties", "post");
    const parsed = R.emptySuccessSchema.parse(ex);
    expect(parsed.ignored_parameters_unsupported).toEqual(["invalid_param_1", "invalid_param_2"]);
  });

  it("reads the feature level under both spellings", () => {
    const [ex] = responseExamples("/register", "post") as Array<Record<string, unknown>>;
    expect(registerResponseSchema.parse(ex).svc_feature_level).toBe(ex?.zulip_feature_level);
    expect(registerResponseSchema.parse(toServiceNames(ex)).svc_feature_level).toBe(ex?.zulip_feature_level);
  });

  it("parses every event inside the GET /events example", () => {
    const [ex] = responseExamples("/events", "get");
    const res = eventsResponseSchema.parse(ex);
    expect(res.events.length).toBeGreaterThan(0);
    for (const e of res.events) expect(parseEvent(e).type).toBe("message");
  });
});

describe("public event examples", () => {
  const variants = eventVariants();

  it("the file lists the variants we expect", () => {
    expect(variants.length).toBe(77);
    const listed = new Set(variants.map((v) => (v.op ? `${v.type}/${v.op}` : v.type)));
    for (const key of Object.keys(DELIBERATELY_UNKNOWN)) expect(listed.has(key), key).toBe(true);
  });

  for (const v of variants) {
    const key = v.op ? `${v.type}/${v.op}` : v.type;
    // Some examples (drafts, saved_snippets, scheduled_messages,
    // realm_export_consent) leave out `id`; every real event carries one.
    const example = toServiceNames({ id: 0, ...v.example }) as Record<string, unknown>;
    const reason = DELIBERATELY_UNKNOWN[key];
    if (reason) {
      it(`${key} is deliberately unknown (${reason})`, () => {
        expect(parseEvent(example)).toEqual({ type: "unknown", id: example.id, raw: example });
      });
    } else {
      it(`${key} parses as its own type`, () => {
        const parsed = parseEvent(example) as { type: string; op?: string };
        expect(parsed.type).toBe(v.type);
        if (v.op) expect(parsed.op).toBe(v.op);
      });
    }
  }
});

describe("public error examples map to ApiError", () => {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const origin = "http://127.0.0.1:9";
  const client = new ApiClient(
    { site: origin, email: "me@example.test", apiKey: "k" },
    { dispatcher: agent, retry: { attempts: 1, baseMs: 0, maxMs: 0, maxRetryAfterMs: 0 } },
  );
  afterAll(() => agent.close());

  const cases: Array<[string, string, unknown]> = [];
  for (const op of [...Object.keys(OPERATIONS), "POST /rest-error-handling"]) {
    const [method, path] = split(op);
    for (const status of errorStatuses(path, method)) {
      for (const ex of responseExamples(path, method, status)) cases.push([op, status, ex]);
    }
  }

  it("has error examples to check", () => expect(cases.length).toBeGreaterThan(30));

  for (const [op, status, ex] of cases) {
    const body = ex as Record<string, unknown>;
    it(`${op} ${status} ${String(body.code)}: ${String(body.msg).slice(0, 50)}`, async () => {
      agent
        .get(origin)
        .intercept({ path: () => true, method: () => true })
        .reply(Number(status), JSON.stringify(ex), { headers: { "content-type": "application/json" } });
      const err = await client.request("POST", "anything", { schema: R.emptySuccessSchema }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      const api = err as ApiError;
      expect(api.code).toBe(body.code);
      expect(api.message).toBe(body.msg);
      expect(api.status).toBe(Number(status));
      const { result: _r, code: _c, msg: _m, ...extra } = body;
      expect(api.data).toEqual(extra);
      if (body.code === "RATE_LIMIT_HIT") expect(api.retryAfter).toBe(body["retry-after"]);
      if (status === "401") expect(api.isAuthFailure).toBe(true);
    });
  }
});
