import { describe, expect, it } from "vitest";
import { backoffDelay, encodeParams } from "../../src/api/http.js";
import { normalizeSite, SiteError } from "../../src/api/site.js";

describe("encodeParams", () => {
  it("sends strings as they are, numbers and booleans as text, arrays and objects as JSON", () => {
    const p = encodeParams({
      topic: "lunch plans",
      stream_id: 12,
      allow: true,
      to: [1, 2],
      narrow: [{ operator: "channel", operand: 5 }],
      folder_id: null,
      skipped: undefined,
    });
    expect(p.get("topic")).toBe("lunch plans");
    expect(p.get("stream_id")).toBe("12");
    expect(p.get("allow")).toBe("true");
    expect(p.get("to")).toBe("[1,2]");
    expect(JSON.parse(p.get("narrow") ?? "")).toEqual([{ operator: "channel", operand: 5 }]);
    expect(p.get("folder_id")).toBe("null");
    expect(p.has("skipped")).toBe(false);
  });

  it("encodes group-setting changes as {new, old} objects", () => {
    const p = encodeParams({ can_add_subscribers_group: { new: { direct_members: [1], direct_subgroups: [] }, old: 7 } });
    expect(JSON.parse(p.get("can_add_subscribers_group") ?? "")).toEqual({ new: { direct_members: [1], direct_subgroups: [] }, old: 7 });
  });
});

describe("normalizeSite", () => {
  it("adds https:// when the scheme is missing and drops trailing slashes", () => {
    expect(normalizeSite("chat.example.com/").href).toBe("https://chat.example.com/");
  });

  it("refuses plain http to a remote host unless allowed", () => {
    expect(() => normalizeSite("http://chat.example.com")).toThrow(SiteError);
    expect(() => normalizeSite("http://chat.example.com")).toThrow(/--allow-insecure-http/);
    expect(normalizeSite("http://chat.example.com", true).protocol).toBe("http:");
  });

  it("allows plain http to loopback", () => {
    expect(normalizeSite("http://127.0.0.1:9991").host).toBe("127.0.0.1:9991");
    expect(normalizeSite("http://localhost:9991").host).toBe("localhost:9991");
  });

  it("rejects other schemes and garbage with a clear message", () => {
    expect(() => normalizeSite("ftp://x")).toThrow(/Unsupported URL scheme/);
    expect(() => normalizeSite("http://")).toThrow(/not a valid server URL/);
  });
});

describe("backoffDelay", () => {
  it("grows exponentially up to the cap, with full jitter", () => {
    const policy = { baseMs: 100, maxMs: 10_000 };
    expect(backoffDelay(0, policy, () => 1)).toBe(100);
    expect(backoffDelay(3, policy, () => 1)).toBe(800);
    expect(backoffDelay(20, policy, () => 1)).toBe(10_000);
    expect(backoffDelay(5, policy, () => 0)).toBe(0);
  });
});

describe("ApiClient.url", () => {
  it("joins the site and the API path without doubled slashes, keeping a path prefix", async () => {
    const { ApiClient } = await import("../../src/api/http.js");
    const bare = new ApiClient({ site: "http://127.0.0.1:9991/", email: "a@b", apiKey: "k" });
    expect(bare.url("register").href).toBe("http://127.0.0.1:9991/api/v1/register");
    const prefixed = new ApiClient({ site: "https://example.test/chat/", email: "a@b", apiKey: "k" });
    expect(prefixed.url("/users/me").href).toBe("https://example.test/chat/api/v1/users/me");
    await bare.close();
    await prefixed.close();
  });

  it("never shows the API key when serialized", async () => {
    const { ApiClient } = await import("../../src/api/http.js");
    const c = new ApiClient({ site: "https://example.test", email: "a@b", apiKey: "sekrit-key" });
    expect(JSON.stringify(c)).not.toContain("sekrit");
    await c.close();
  });
});

describe("get messages response", () => {
  it("accepts the 10^16 anchor the service returns for anchor=newest", async () => {
    const { getMessagesResponseSchema } = await import("../../src/api/schemas/responses.js");
    const parsed = getMessagesResponseSchema.parse({ result: "success", msg: "", anchor: 10_000_000_000_000_000, messages: [] });
    expect(parsed.anchor).toBe(1e16);
  });
});
