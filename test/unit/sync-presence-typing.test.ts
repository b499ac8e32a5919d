/**
 * Presence and typing timings on fake time, with the periods the register
 * announces and the documented fallbacks.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TypingParams } from "../../src/api/routes/typing.js";
import type { UpdatePresenceParams } from "../../src/api/routes/presence.js";
import { PresenceReporter } from "../../src/sync/presence-reporter.js";
import { TypingNotifier } from "../../src/sync/typing-notifier.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { FakeClock, settle } from "../fixtures/fake-clock.js";
import { fakeSyncApi } from "../fixtures/fake-sync.js";
import * as eg from "../fixtures/example.js";

let clock: FakeClock;
let fake: ReturnType<typeof fakeSyncApi>;
let machine: UpdateMachine;

beforeEach(() => {
  eg.resetIds();
  clock = new FakeClock();
  fake = fakeSyncApi();
  machine = new UpdateMachine(fake.client, { clock, api: fake.api });
});

afterEach(async () => {
  await machine.stop();
  await fake.client.close();
});

describe("presence reporter", () => {
  let reports: Array<UpdatePresenceParams & { at: number }>;
  let reporter: PresenceReporter;

  async function start(reg: Record<string, unknown> = {}) {
    fake.registers(eg.registerResponse({ queue_id: "q", ...reg }));
    reports = [];
    reporter = new PresenceReporter(machine, {
      updatePresence: async (_c, p) => {
        reports.push({ ...p, at: clock.now() });
        return { result: "success", msg: "", presence_last_update_id: 100 + reports.length, presences: { "2": { active_timestamp: 1_763_600_000, idle_timestamp: 1_763_600_000 } } };
      },
    });
    await machine.start();
    await settle();
  }

  afterEach(() => reporter.dispose());

  it("reports active at start in the modern format, from the register's last_update_id, and applies the answer", async () => {
    await start({ presence_last_update_id: 42, server_presence_ping_interval_seconds: 30 });
    expect(reports).toEqual([{ status: "active", last_update_id: 42, new_user_input: false, at: clock.now() }]);
    expect(machine.store!.presence.byUser.get(2)).toEqual({ active: 1_763_600_000, idle: 1_763_600_000 });
    expect(machine.store!.presence.lastUpdateId).toBe(101);
    await clock.advance(30_000);
    expect(reports[1]).toMatchObject({ last_update_id: 101 });
    expect(reports[1]!.at - reports[0]!.at).toBe(30_000);
  });

  it("pings every announced interval (60 s when not announced) while keys come; idle after the threshold; active again at once on a key", async () => {
    await start({ server_presence_offline_threshold_seconds: 140 });
    for (let i = 0; i < 4; i++) {
      await clock.advance(30_000);
      reporter.keyPressed();
    }
    // t = 120 s: pings at 60 and 120, all active, with new input flagged.
    expect(reports.map((r) => [r.status, (r.at - reports[0]!.at) / 1000, r.new_user_input])).toEqual([
      ["active", 0, false],
      ["active", 60, true],
      ["active", 120, true],
    ]);
    await clock.advance(140_000); // last key at 120 s → idle at 260 s
    expect(reports.filter((r) => r.status === "idle").map((r) => (r.at - reports[0]!.at) / 1000)).toEqual([260]);
    reporter.keyPressed();
    await settle();
    expect(reports.at(-1)).toMatchObject({ status: "active", new_user_input: true });
    expect((reports.at(-1)!.at - reports[0]!.at) / 1000).toBe(260);
  });

  it("stays quiet while the connection is down, and pings again once it is back", async () => {
    await start();
    fake.polls({ error: new Error("down") }, { error: new Error("down") });
    fake.failPoll(new Error("down"));
    await clock.advance(1000);
    expect(machine.state.kind).toBe("reconnecting");
    const before = reports.length;
    await clock.advance(60_000);
    expect(reports.length).toBe(before);
    fake.push([{ type: "heartbeat", id: 0 }]);
    await clock.advance(60_000);
    expect(machine.state.kind).toBe("live");
    expect(reports.length).toBe(before + 1);
  });
});

describe("typing notifier", () => {
  let sent: Array<TypingParams & { at: number }>;
  let typing: TypingNotifier;
  const dm = { type: "direct" as const, userIds: [2] };
  const topic = { type: "stream" as const, channelId: 10, topic: "Plans" };

  async function start(reg: Record<string, unknown> = {}) {
    fake.registers(eg.registerResponse({ queue_id: "q", ...reg }));
    sent = [];
    typing = new TypingNotifier(machine, {
      setTypingStatus: async (_c, p) => {
        sent.push({ ...p, at: clock.now() });
      },
    });
    await machine.start();
  }
  const rel = () => sent.map((s) => [s.op, (s.at - (sent[0]?.at ?? 0)) / 1000]);

  it("start at once, again every 10 s while typing, stop after 5 s without a key", async () => {
    await start();
    for (let i = 0; i < 25; i++) {
      typing.keystroke(dm);
      await clock.advance(1000);
    }
    await clock.advance(10_000);
    expect(rel()).toEqual([
      ["start", 0],
      ["start", 10],
      ["start", 20],
      ["stop", 29],
    ]);
    expect(sent[0]).toMatchObject({ type: "direct", to: [2] });
  });

  it("uses the server's periods", async () => {
    await start({ server_typing_started_wait_period_milliseconds: 4000, server_typing_stopped_wait_period_milliseconds: 2000 });
    for (let i = 0; i < 5; i++) {
      typing.keystroke(dm);
      await clock.advance(1000);
    }
    await clock.advance(5000);
    expect(rel()).toEqual([
      ["start", 0],
      ["start", 4],
      ["stop", 6],
    ]);
  });

  it("channel topics use stream_id and topic; switching conversation stops the old one; stop() on send", async () => {
    await start();
    typing.keystroke(topic);
    await clock.advance(500);
    typing.keystroke(dm);
    typing.stop();
    expect(sent.map(({ at: _at, ...p }) => p)).toEqual([
      { op: "start", type: "stream", stream_id: 10, topic: "Plans" },
      { op: "stop", type: "stream", stream_id: 10, topic: "Plans" },
      { op: "start", type: "direct", to: [2] },
      { op: "stop", type: "direct", to: [2] },
    ]);
  });

  it("no channel typing for servers without stream_id (feature level < 215), or when the user turned it off", async () => {
    await start({ svc_feature_level: 200, user_settings: { send_private_typing_notifications: false } });
    typing.keystroke(topic);
    typing.keystroke(dm);
    await clock.advance(10_000);
    expect(sent).toEqual([]);
  });
});
