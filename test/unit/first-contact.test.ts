/**
 * The words for first-contact failures (the ones the binary tests cannot
 * provoke cheaply: a timeout, a failed name lookup, an unreachable network),
 * the site forms people write, the bounded rate-limit wait, and the app's
 * start guard: which failures end the start, which are waited out, and that
 * the waiting is bounded.
 */
import { describe, expect, it } from "vitest";
import { ApiError, NetworkError, SchemaError, ServerError } from "../../src/api/errors.js";
import {
  MIN_FEATURE_LEVEL,
  UnsupportedServerError,
  checkFeatureLevel,
  explainFailure,
  retryRateLimited,
} from "../../src/api/first-contact.js";
import { ApiClient } from "../../src/api/http.js";
import { normalizeSite } from "../../src/api/site.js";
import { START_ATTEMPTS, startGuard } from "../../src/sync/start-guard.js";

const site = new URL("https://chat.example.com");
const net = (code: string, reason: NetworkError["reason"] = "connect") =>
  new NetworkError(`GET x: (${code})`, reason, Object.assign(new Error(code), { code }));

describe("explainFailure", () => {
  it("names the host or host:port and what happened", () => {
    expect(explainFailure(net("EAI_AGAIN"), { site })).toBe("cannot find host chat.example.com (the name lookup failed; is the network up?)");
    expect(explainFailure(net("ENETUNREACH"), { site })).toBe("cannot reach chat.example.com (ENETUNREACH; is the network up?)");
    expect(explainFailure(new NetworkError("GET x: timed out", "timeout", new DOMException("t", "TimeoutError")), { site })).toBe(
      "chat.example.com:443 did not answer in time (a slow network, or a firewall?)",
    );
    expect(explainFailure(net("ECONNREFUSED"), { site: new URL("http://127.0.0.1:9991") })).toBe(
      "nothing answers at 127.0.0.1:9991 (is the server running, is the URL right?)",
    );
  });

  it("finds the TLS code in a cause chain", () => {
    const inner = Object.assign(new Error("x"), { code: "CERT_HAS_EXPIRED" });
    const err = new NetworkError("x", "tls", Object.assign(new Error("wrapped"), { cause: inner }));
    expect(explainFailure(err, { site })).toMatch(/^the certificate of chat\.example\.com has expired/);
  });

  it("refusals: key, deactivated account and organization, rate limit, login", () => {
    expect(explainFailure(new ApiError(401, "INVALID_API_KEY", "Invalid API key"), { site, who: "me@x" })).toBe(
      'chat.example.com refused the API key for me@x (INVALID_API_KEY): check the key, or log in again with "termchat login"',
    );
    expect(explainFailure(new ApiError(401, "USER_DEACTIVATED", "Account is deactivated"), { site, who: "me@x" })).toBe(
      "the account me@x is deactivated on chat.example.com (ask an administrator)",
    );
    expect(explainFailure(new ApiError(401, "REALM_DEACTIVATED", "This organization is deactivated"), { site })).toBe(
      "the organization at chat.example.com is deactivated",
    );
    expect(explainFailure(new ApiError(429, "RATE_LIMIT_HIT", "slow down", {}, 28.7), { site })).toBe("rate limited by the server (try again in 29 s)");
    expect(explainFailure(new ApiError(401, "AUTHENTICATION_FAILED", "Your username or password is incorrect"), { site, who: "me", login: true })).toBe(
      "login refused for me: Your username or password is incorrect",
    );
  });

  it("a web page, a server too old, a 5xx", () => {
    expect(explainFailure(new SchemaError("GET x", "the body is not JSON"), { site, webPage: true })).toBe(
      "chat.example.com answered with a web page, not the chat API — is the URL right? (a captive portal or a login page?)",
    );
    expect(explainFailure(new UnsupportedServerError(100), { site })).toBe(
      `chat.example.com runs a server too old for termchat: it has feature level 100, termchat needs ${MIN_FEATURE_LEVEL} or newer`,
    );
    expect(explainFailure(new ServerError(500, "x"), { site })).toBe("chat.example.com failed to answer (HTTP 500); try again later");
  });
});

describe("checkFeatureLevel", () => {
  it("reads either spelling; no level at all is too old", () => {
    expect(() => checkFeatureLevel({ svc_feature_level: MIN_FEATURE_LEVEL })).not.toThrow();
    expect(() => checkFeatureLevel({ zulip_feature_level: 400 })).not.toThrow();
    expect(() => checkFeatureLevel({ zulip_feature_level: MIN_FEATURE_LEVEL - 1 })).toThrow(UnsupportedServerError);
    expect(() => checkFeatureLevel({})).toThrow(/feature level 0/);
  });
});

describe("normalizeSite", () => {
  it("accepts the forms people write, all meaning the same server", () => {
    for (const s of ["chat.example.com", "https://chat.example.com/", "https://chat.example.com/api", "chat.example.com/api/v1", "https://chat.example.com/api/v1/"]) {
      expect(normalizeSite(s).href).toBe("https://chat.example.com/");
    }
    expect(normalizeSite("https://example.com/chat/api/v1").href).toBe("https://example.com/chat");
    const c = new ApiClient({ site: "https://chat.example.com/api/v1/", email: "a@b", apiKey: "k" });
    expect(c.url("users/me").href).toBe("https://chat.example.com/api/v1/users/me");
  });
});

describe("retryRateLimited", () => {
  it("waits Retry-After, says so, and gives up after the bound", async () => {
    const notes: string[] = [];
    const waits: number[] = [];
    let calls = 0;
    const limited = () => new ApiError(429, "RATE_LIMIT_HIT", "x", {}, 2);
    const run = retryRateLimited(
      async () => {
        calls++;
        throw limited();
      },
      { retries: 3, notify: (l) => notes.push(l), sleep: async (ms) => void waits.push(ms) },
    );
    await expect(run).rejects.toBeInstanceOf(ApiError);
    expect(calls).toBe(4);
    expect(waits).toEqual([2000, 2000, 2000]);
    expect(notes[0]).toBe("rate limited by the server, retrying in 2 s");
  });

  it("does not wait longer than the bound allows", async () => {
    const waits: number[] = [];
    const run = retryRateLimited(async () => Promise.reject(new ApiError(429, "RATE_LIMIT_HIT", "x", {}, 600)), {
      notify: () => undefined,
      sleep: async (ms) => void waits.push(ms),
    });
    await expect(run).rejects.toBeInstanceOf(ApiError);
    expect(waits).toEqual([]);
  });
});

describe("the start guard", () => {
  const client = new ApiClient({ site: "https://chat.example.com", email: "me@x", apiKey: "k" });
  const guard = startGuard({ client, email: "me@x" });

  it("ends the start at once on a missing host, a closed port, a certificate, a refused key", async () => {
    for (const err of [net("ENOTFOUND"), net("ECONNREFUSED"), net("DEPTH_ZERO_SELF_SIGNED_CERT", "tls"), new ApiError(401, "INVALID_API_KEY", "x")]) {
      expect(await guard(err, 0)).toHaveProperty("fail");
    }
  });

  it("waits out a rate limit with a note, bounded", async () => {
    const err = new ApiError(429, "RATE_LIMIT_HIT", "x", {}, 5);
    expect(await guard(err, 0)).toEqual({ retryInMs: 5000, note: "rate limited by the server, retrying in 5 s" });
    expect(await guard(err, START_ATTEMPTS - 1)).toEqual({ fail: "rate limited by the server (try again in 5 s)" });
  });

  it("retries a reset connection and a 5xx a few times, then ends", async () => {
    expect(await guard(net("ECONNRESET"), 0)).toBeUndefined();
    expect(await guard(new ApiError(503, "X", "busy"), 1)).toBeUndefined();
    expect(await guard(net("ECONNRESET"), START_ATTEMPTS - 1)).toHaveProperty("fail");
  });
});
