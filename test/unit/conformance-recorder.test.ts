// The recorder that checks the reference server's responses against the
// public API description: it must notice a wrong shape, not only pass.

import { describe, expect, it } from "vitest";
import { ConformanceRecorder } from "../fixtures/conformance.js";

describe("ConformanceRecorder", () => {
  it("passes a documented success body and reports a wrong one", () => {
    const r = new ConformanceRecorder();
    r.record({ method: "GET", path: "/users/me/7/topics", status: 200, body: { result: "success", msg: "", topics: [{ name: "a", max_id: 3 }] } });
    expect(r.problems()).toEqual([]);
    r.record({ method: "GET", path: "/users/me/7/topics", status: 200, body: { result: "success", msg: "", topics: [{ name: 5, max_id: 3 }] } });
    expect(r.problems()).toEqual([expect.stringContaining("GET /users/me/{stream_id}/topics $.topics[0].name: expected string")]);
  });

  it("checks every event of a GET /events answer, maps svc_* names, and ignores error answers", () => {
    const r = new ConformanceRecorder();
    const reaction = { type: "reaction", op: "add", id: 1, user_id: 9, message_id: 4, emoji_name: "x", emoji_code: "x", reaction_type: "svc_extra_emoji", user: { user_id: 9, email: "a@b", full_name: "A" } };
    r.record({ method: "GET", path: "/events", status: 200, body: { result: "success", msg: "", events: [reaction] } });
    expect(r.problems()).toEqual([]);
    r.record({ method: "GET", path: "/events", status: 200, body: { result: "success", msg: "", events: [{ ...reaction, surprise: true }] } });
    expect(r.problems()).toEqual([expect.stringContaining("surprise: not in the schema")]);
    r.record({ method: "GET", path: "/users/me/7/topics", status: 400, body: { result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" } });
    expect(r.problems()).toHaveLength(1);
    expect(r.count).toBe(2); // two events; the error answer is not recorded
  });

  it("decodes the path, so /users/{email} is told apart from /users/{user_id}", () => {
    const r = new ConformanceRecorder();
    r.record({ method: "GET", path: "/users/someone%40example.com", status: 200, body: { result: "success", msg: "", user: { nonsense: 1 } } });
    expect(r.problems().every((p) => p.startsWith("GET /users/{email}"))).toBe(true);
    expect(r.problems().length).toBeGreaterThan(0);
  });
});
