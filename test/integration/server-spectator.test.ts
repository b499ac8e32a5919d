/**
 * Register without credentials: a spectator gets the organization and its
 * web-public channels, no queue and no personal data; the two parameters the
 * spec forbids for anonymous requests are refused.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { registerResponseSchema } from "../../src/api/schemas/register.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
beforeEach(async () => {
  ctx = await withServer();
});
afterEach(async () => ctx.close());

async function anonymousRegister(params: Record<string, string> = {}) {
  const res = await fetch(`${ctx.server.url}/api/v1/register`, { method: "POST", body: new URLSearchParams(params) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

it("gives a spectator the web-public channels and no event queue", async () => {
  const { status, body } = await anonymousRegister();
  expect(status).toBe(200);
  const reg = registerResponseSchema.parse(body);
  expect(reg.queue_id).toBeNull();
  expect(reg.realm_name).toBe("Lighthouse Labs");
  expect(reg.subscriptions).toEqual([]);
  const channels = reg.never_subscribed.all().map(([, c]) => c);
  expect(reg.never_subscribed.problems).toEqual([]);
  const names = channels.map((c) => c.name);
  expect(names).toContain("announcements");
  expect(channels.every((c) => c.is_web_public)).toBe(true);
  expect(names).not.toContain("leadership");
});

it("refuses client_gravatar or include_subscribers set to true without credentials", async () => {
  const cases: Array<Record<string, string>> = [{ client_gravatar: "true" }, { include_subscribers: "true" }];
  for (const params of cases) {
    const { status, body } = await anonymousRegister(params);
    expect(status).toBe(400);
    expect(body).toMatchObject({ result: "error", code: "BAD_REQUEST", msg: expect.stringMatching(/for anonymous request$/) });
  }
});

it("still authenticates when credentials are sent, and refuses wrong ones", async () => {
  const auth = "Basic " + Buffer.from(`${ctx.owner.email}:${"x".repeat(32)}`).toString("base64");
  const res = await fetch(`${ctx.server.url}/api/v1/register`, { method: "POST", headers: { authorization: auth } });
  expect(res.status).toBe(401);
});
