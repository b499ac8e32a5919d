/**
 * The update machine's start guard on fake time and scripted endpoints: a
 * verdict to fail ends the start with its line (state `failed`), a verdict
 * to wait shows its note in the state and registers again after the wait.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { ApiError, NetworkError } from "../../src/api/errors.js";
import { UpdateMachine, type ConnectionState, type StartVerdict } from "../../src/sync/update-machine.js";
import { FakeClock, settle } from "../fixtures/fake-clock.js";
import { fakeSyncApi } from "../fixtures/fake-sync.js";
import * as eg from "../fixtures/example.js";

let clock: FakeClock;
let fake: ReturnType<typeof fakeSyncApi>;
let machine: UpdateMachine | undefined;
const asked: Array<[unknown, number]> = [];

function withGuard(verdict: (err: unknown, attempt: number) => StartVerdict | undefined): { m: UpdateMachine; states: ConnectionState[] } {
  const states: ConnectionState[] = [];
  const m = new UpdateMachine(fake.client, {
    clock,
    api: fake.api,
    random: () => 1,
    startGuard: async (err, attempt) => {
      asked.push([err, attempt]);
      return verdict(err, attempt);
    },
  });
  m.onState((s) => states.push(s));
  machine = m;
  return { m, states };
}

beforeEach(() => {
  eg.resetIds();
  clock = new FakeClock();
  fake = fakeSyncApi();
  asked.length = 0;
});

afterEach(async () => {
  await machine?.stop();
  await fake.client.close();
});

it("a fail verdict ends the start with its line", async () => {
  const refused = new NetworkError("x", "connect");
  fake.registers({ error: refused });
  const { m } = withGuard(() => ({ fail: "nothing answers at chat.example.com:443" }));
  await expect(m.start()).rejects.toBe(refused);
  expect(m.state).toEqual({ kind: "failed", error: "nothing answers at chat.example.com:443" });
  expect(fake.calls.filter((c) => c.name === "register")).toHaveLength(1);
});

it("a wait verdict shows its note, waits that long, and registers again", async () => {
  fake.registers({ error: new ApiError(429, "RATE_LIMIT_HIT", "x", {}, 7) });
  const { m, states } = withGuard((_err, attempt) => (attempt === 0 ? { retryInMs: 7000, note: "rate limited by the server, retrying in 7 s" } : undefined));
  const started = m.start();
  await settle();
  expect(states.at(-1)).toEqual({ kind: "reconnecting", attempt: 1, error: "rate limited by the server, retrying in 7 s" });
  await clock.advance(6999);
  expect(fake.calls.filter((c) => c.name === "register")).toHaveLength(1);
  await clock.advance(1);
  await started;
  expect(m.state.kind).toBe("live");
  expect(fake.calls.filter((c) => c.name === "register")).toHaveLength(2);
  expect(asked).toHaveLength(1);
});
