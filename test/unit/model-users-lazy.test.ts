/**
 * The register's users are checked as they are used (LazyRecords → UserMap): the store
 * behaves as if all had been checked up front, and a malformed one is left out, said why,
 * instead of stopping the client.
 */
import { describe, expect, it } from "vitest";
import * as eg from "../fixtures/example.js";

const bad = { ...eg.user({ user_id: 77, full_name: "Broken" }), email: 42 };
const noId = { email: "x@example.test", full_name: "No id" };

describe("users from register, checked as used", () => {
  it("gives the valid users and leaves the malformed ones out, naming them", () => {
    const s = eg.store({ realm_users: [eg.selfUser, eg.otherUser, bad, noId] });
    expect(s.users.get(eg.otherUser.user_id)?.full_name).toBe(eg.otherUser.full_name);
    expect(s.users.get(77)).toBeUndefined();
    expect(s.users.has(77)).toBe(false);
    expect([...s.users.values()].map((u) => u.user_id).sort()).toEqual([eg.selfUser.user_id, eg.otherUser.user_id].sort());
    expect(s.users.size).toBe(2);
    expect(s.people.byId.problems).toEqual(["user at position 3: no integer id", expect.stringMatching(/^user 77: email: /)]);
  });

  it("checks a batch at a time, and is the same map to the rest of the model meanwhile", () => {
    const many = Array.from({ length: 50 }, (_, i) => eg.user({ user_id: 1000 + i, full_name: `Person ${i}` }));
    const s = eg.store({ realm_users: [eg.selfUser, ...many] });
    expect(s.userName(1010)).toBe("Person 10"); // asked for before its batch
    expect(s.people.byId.checkSome(20)).toBe(30); // 51 in all: Person 10 already, 20 now
    s.people.byId.delete(1040); // as a removal would
    s.people.byId.set(1041, { ...s.users.get(1041)!, full_name: "Renamed" });
    expect(s.people.byId.checkSome(100)).toBe(0);
    expect(s.users.has(1040)).toBe(false);
    expect(s.users.get(1041)?.full_name).toBe("Renamed");
    expect(s.users.size).toBe(50);
    expect(s.people.byId.problems).toEqual([]);
  });

  it("follows user events for users not taken in yet", () => {
    const s = eg.store({ realm_users: [eg.selfUser, eg.otherUser] });
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: eg.otherUser.user_id, full_name: "New Name" } });
    expect(s.userName(eg.otherUser.user_id)).toBe("New Name");
  });
});
