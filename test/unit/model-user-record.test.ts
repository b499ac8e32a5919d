/**
 * Users in the store's compact form: they read as the server sent them (fields, events,
 * the email index, the cache's snapshot).
 */
import { describe, expect, it } from "vitest";
import { compactUser } from "../../src/api/schemas/user-record.js";
import { checkSomeRecords } from "../../src/model/store-queries.js";
import { takeSnapshot } from "../../src/sync/cache-snapshot.js";
import { registerRequest } from "../../src/api/register-request.js";
import { registerResponseSchema } from "../../src/api/schemas/register.js";
import { Store } from "../../src/model/store.js";
import * as eg from "../fixtures/example.js";

describe("the compact user record", () => {
  it("reads as the record it came from, unknown fields kept and an empty profile left out", () => {
    const u = { ...eg.user({ user_id: 5, full_name: "Ada" }), profile_data: {}, pronouns_field: "she/her" };
    const c = compactUser(u);
    expect(c).toEqual({ ...u, profile_data: undefined });
    expect((c as Record<string, unknown>).pronouns_field).toBe("she/her");
    expect(compactUser({ ...u, profile_data: { "3": { value: "Oslo" } } }).profile_data).toEqual({ "3": { value: "Oslo" } });
  });

  it("users from register, events and the cache read the same after compaction", () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      eg.user({ user_id: 2000 + i, full_name: `Person ${i}`, email: `p${i}@example.test`, delivery_email: `p${i}@example.test`, timezone: "Europe/Oslo" }),
    );
    const s = eg.store({ realm_users: [eg.selfUser, eg.otherUser, ...many] });
    expect(checkSomeRecords(s, 1000)).toBe(0);
    expect(s.users.get(2003)).toMatchObject({ full_name: "Person 3", email: "p3@example.test", timezone: "Europe/Oslo" });
    expect(s.userIdByEmail("p7@example.test")).toBe(2007);
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 2003, new_email: "moved@example.test" } });
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 2004, role: 200 } });
    eg.apply(s, { type: "realm_user", op: "add", person: eg.user({ user_id: 3000, full_name: "Late Joiner", profile_data: {} }) });
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 3000, custom_profile_field: { id: 4, value: "Bergen" } } });
    expect(s.userIdByEmail("moved@example.test")).toBe(2003);
    expect(s.users.get(2004)).toMatchObject({ role: 200, is_admin: true });
    expect(s.users.get(3000)?.profile_data).toEqual({ "4": { value: "Bergen" } });
    const snap = takeSnapshot(s, { site: "https://chat.example.test", email: "self@example.test", base: {}, maxMessageId: 0, now: 0 });
    const cachedSelf = (snap.register.realm_users as Array<{ user_id: number; full_name: string }>).find((u) => u.user_id === eg.selfUser.user_id);
    expect(JSON.parse(JSON.stringify(cachedSelf))).toEqual(JSON.parse(JSON.stringify(eg.selfUser)));
    expect(s.recount()).toEqual([]);
  });

  it("a register read as the client reads it (in parts, users in store form as parsed) builds the same store", () => {
    const many = Array.from({ length: 3000 }, (_, i) => eg.user({ user_id: 5000 + i, full_name: `Person ${i} ${"é".repeat(i % 40)}`, profile_data: i % 2 ? {} : { "1": { value: `v${i}` } } }));
    const bad = { ...eg.user({ user_id: 77, full_name: "Broken" }), email: 42 };
    const wire = JSON.stringify({ result: "success", msg: "", queue_id: "q", last_event_id: -1, user_id: eg.selfUser.user_id, realm_users: [eg.selfUser, bad, 12, ...many] });
    const parse = registerRequest().parseBytes;
    const fromParts = new Store(registerResponseSchema.parse(parse(Buffer.from(wire))));
    const fromWhole = new Store(registerResponseSchema.parse(JSON.parse(wire)));
    expect(checkSomeRecords(fromParts, 10_000)).toBe(0);
    expect(checkSomeRecords(fromWhole, 10_000)).toBe(0);
    expect([...fromParts.users.values()]).toEqual([...fromWhole.users.values()]);
    expect(fromParts.users.get(5003)?.full_name).toBe(`Person 3 ${"é".repeat(3)}`);
    expect(fromParts.people.byId.problems).toEqual(fromWhole.people.byId.problems);
    expect(fromParts.people.byId.problems).toHaveLength(2);
  });
});
