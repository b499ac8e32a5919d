/**
 * The register's users and joinable channels are checked as they are used (LazyRecords →
 * LazyMap): the store behaves as if all had been checked up front, and a malformed one is
 * left out, said why, instead of stopping the client.
 */
import { describe, expect, it } from "vitest";
import { checkSomeRecords, malformedRecords } from "../../src/model/store-queries.js";
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

describe("channels one can join, from register, checked as used", () => {
  const general = eg.subscription({ stream_id: 10, name: "general" });
  const joinable = (id: number, name: string) => eg.channel({ stream_id: id, name });

  it("are found by id and by walking, a channel also subscribed to counting as subscribed only", () => {
    const s = eg.store({
      subscriptions: [general],
      never_subscribed: [joinable(20, "garden"), joinable(21, "kitchen"), { ...joinable(10, "general"), description: "stale" }, { ...joinable(22, "x"), name: null }],
    });
    expect(s.channelName(21)).toBe("kitchen");
    expect(s.isSubscribed(10)).toBe(true);
    expect([...s.channelsModel.neverSubscribed.keys()].sort()).toEqual([20, 21]);
    expect(s.channel(22)).toBeUndefined();
    expect(malformedRecords(s)).toMatch(/^Left out 1 malformed channel \(channel 22: name: /);
  });

  it("follow subscription and channel events before they are checked", () => {
    const s = eg.store({ subscriptions: [general], never_subscribed: [joinable(20, "garden"), joinable(21, "kitchen"), joinable(23, "attic")] });
    eg.apply(s, { type: "subscription", op: "add", subscriptions: [eg.subscription({ stream_id: 20, name: "garden" })] });
    eg.apply(s, { type: "stream", op: "delete", streams: [{ stream_id: 21 }], stream_ids: [21] });
    eg.apply(s, { type: "stream", op: "update", stream_id: 23, name: "attic", property: "description", value: "Old boxes", rendered_description: "<p>Old boxes</p>" });
    expect(checkSomeRecords(s, 100)).toBe(0);
    expect(s.isSubscribed(20)).toBe(true);
    expect(s.channel(21)).toBeUndefined();
    expect(s.channel(23)?.description).toBe("Old boxes");
    expect([...s.channelsModel.neverSubscribed.keys()]).toEqual([23]);
    expect(malformedRecords(s)).toBeUndefined();
  });

  it("users first, then channels, a batch at a time; one line names both kinds of problem", () => {
    const s = eg.store({
      realm_users: [eg.selfUser, { ...eg.otherUser, email: 5 }],
      never_subscribed: [joinable(20, "garden"), { stream_id: 24 }, { stream_id: 25 }],
    });
    expect(checkSomeRecords(s, 1)).toBeGreaterThan(0);
    let rounds = 1;
    while (checkSomeRecords(s, 1) > 0 && rounds < 20) rounds++;
    expect(rounds).toBeLessThan(20);
    expect(malformedRecords(s)).toMatch(/^Left out 1 malformed user and 2 malformed channels \(user \d+: email: /);
  });
});
