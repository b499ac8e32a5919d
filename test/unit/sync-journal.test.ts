/**
 * The draft journal: debounced (~300 ms, bounded under a stream of keys),
 * atomic writes (never a torn file, mode 0600), restored on the next start,
 * including after `kill -9` of a process in the middle of writing.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DraftJournal, draftKey, parseDraftKey } from "../../src/sync/draft-journal.js";
import { FakeClock } from "../fixtures/fake-clock.js";

const account = { site: "https://chat.example.test", email: "self@example.test" };
const topic = { type: "stream" as const, channelId: 10, topic: "Greetings" };
let dir: string;
let clock: FakeClock;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "termchat-journal-"));
  clock = new FakeClock();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function onDisk(j: DraftJournal): Promise<Record<string, string>> {
  try {
    const data = JSON.parse(await readFile(j.path, "utf8")) as { entries: Array<{ key: string; text: string }> };
    return Object.fromEntries(data.entries.map((e) => [e.key, e.text]));
  } catch {
    return {};
  }
}

describe("keys", () => {
  it("name conversations; topics compare case-insensitively; DM participants in order", () => {
    expect(draftKey(topic)).toBe("stream:10:greetings");
    expect(draftKey({ type: "direct", userIds: [5, 2, 5] })).toBe("dm:2,5");
    expect(parseDraftKey("dm:2,5")).toEqual({ type: "direct", userIds: [2, 5] });
    expect(parseDraftKey("stream:10:a:b")).toEqual({ type: "stream", channelId: 10, topic: "a:b" });
    expect(parseDraftKey("something else")).toBeUndefined();
  });
});

describe("writing", () => {
  it("is debounced ~300 ms after the last change", async () => {
    const j = await DraftJournal.open({ dir, account, clock });
    const key = draftKey(topic);
    j.update(key, "h", topic);
    await clock.advance(200);
    j.update(key, "he", topic);
    await clock.advance(200);
    await j.idle();
    expect(await onDisk(j)).toEqual({});
    await clock.advance(100);
    await j.idle(); // the write the timer started

    expect(await onDisk(j)).toEqual({ [key]: "he" });
    expect(j.get(key)).toBe("he");
  });

  it("a stream of keys never postpones the write past the bound", async () => {
    const j = await DraftJournal.open({ dir, account, clock, debounceMs: 300, maxWaitMs: 2000 });
    const key = draftKey(topic);
    let text = "";
    let firstWriteAt: number | undefined;
    const start = clock.now();
    for (let i = 0; i < 40 && firstWriteAt === undefined; i++) {
      text += "x";
      j.update(key, text, topic);
      await clock.advance(100);
      await j.idle();
      if (Object.keys(await onDisk(j)).length) firstWriteAt = clock.now() - start;
    }
    expect(firstWriteAt).toBeDefined();
    expect(firstWriteAt!).toBeLessThanOrEqual(2100);
  });

  it("writes atomically: a private file, no temp files left behind, a torn temp file ignored", async () => {
    const j = await DraftJournal.open({ dir, account, clock });
    j.update(draftKey(topic), "secret plans", topic);
    await j.flush();
    expect((await stat(j.path)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o077).toBe(0);
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    await writeFile(`${j.path}.999.dead.tmp`, '{"version":1,"entr');
    const again = await DraftJournal.open({ dir, account, clock });
    expect(again.get(draftKey(topic))).toBe("secret plans");
    expect(again.targetOf(draftKey(topic))).toEqual(topic);
  });

  it("restores every conversation at the next start; clear() forgets one after a send", async () => {
    const j = await DraftJournal.open({ dir, account, clock });
    const dm = { type: "direct" as const, userIds: [2] };
    j.update(draftKey(topic), "to the topic", topic);
    await clock.advance(10);
    j.update(draftKey(dm), "to a person", dm);
    await j.dispose();
    const next = await DraftJournal.open({ dir, account, clock });
    expect(next.all().map((e) => [e.key, e.text])).toEqual([
      ["dm:2", "to a person"],
      ["stream:10:greetings", "to the topic"],
    ]);
    next.clear(draftKey(dm));
    expect(next.get(draftKey(dm))).toBeUndefined();
    await next.flush();
    const third = await DraftJournal.open({ dir, account, clock });
    expect(third.all().map((e) => e.key)).toEqual(["stream:10:greetings"]);
  });

  it("keeps accounts apart", async () => {
    const a = await DraftJournal.open({ dir, account, clock });
    const b = await DraftJournal.open({ dir, account: { ...account, email: "other@example.test" }, clock });
    a.update("k", "mine");
    await a.flush();
    expect(b.path).not.toBe(a.path);
    expect((await DraftJournal.open({ dir, account: { ...account, email: "other@example.test" }, clock })).get("k")).toBeUndefined();
  });
});

describe("crashes", () => {
  let script: string;

  beforeEach(async () => {
    const out = resolve(".tmp", `journal-child-${process.pid}.mjs`);
    const entry = join(dir, "child.ts");
    await writeFile(
      entry,
      `import { DraftJournal } from ${JSON.stringify(resolve("src/sync/draft-journal.ts"))};
const j = await DraftJournal.open({ dir: process.argv[2], account: { site: "https://chat.example.test", email: "self@example.test" }, debounceMs: 20, maxWaitMs: 60 });
j.update("stream:10:greetings", "typed before the crash");
setTimeout(() => {
  process.stdout.write("journaled\\n");
  let n = 0;
  // Keep typing (and writing) until killed.
  setInterval(() => j.update("stream:10:greetings", "typed before the crash" + ".".repeat(++n % 5000)), 1);
}, 200);
`,
    );
    await build({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", outfile: out, logLevel: "silent" });
    script = out;
  });

  it("after kill -9 in the middle of writing, the next start finds the text (never a torn file)", async () => {
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, [script, dir], { stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((res, rej) => {
        const timer = setTimeout(() => rej(new Error("child did not start")), 10_000);
        child.stdout.on("data", (d: Buffer) => {
          if (d.toString().includes("journaled")) {
            clearTimeout(timer);
            res();
          }
        });
      });
      await new Promise((r) => setTimeout(r, 30 + round * 37));
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
      const j = await DraftJournal.open({ dir, account, clock });
      expect(j.get("stream:10:greetings")).toMatch(/^typed before the crash\.*$/);
    }
  });
});
