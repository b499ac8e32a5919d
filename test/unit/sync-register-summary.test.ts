import { describe, expect, it } from "vitest";
import { summarizeRegister } from "../../src/sync/register-summary.js";
import { registerResponse } from "../fixtures/example.js";

describe("summarizeRegister", () => {
  it("keeps the scalars, the settings and the drafts, and drops the sections the store holds", () => {
    const reg = registerResponse({ drafts: [{ id: 1, type: "private", to: [2], topic: "", content: "hi", timestamp: 1 }] });
    const s = summarizeRegister(reg);
    expect(s.svc_feature_level).toBe(reg.svc_feature_level);
    expect(s.server_typing_started_wait_period_milliseconds).toBe(reg.server_typing_started_wait_period_milliseconds);
    expect(s.user_settings).toBe(reg.user_settings);
    expect(s.drafts).toBe(reg.drafts);
    for (const key of ["realm_users", "subscriptions", "never_subscribed", "unread_msgs", "presences", "realm_user_groups"]) expect(key in s, key).toBe(false);
  });
});
