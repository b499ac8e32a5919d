/**
 * The order in which several accounts build their stores: the first at once, the others once the
 * first screen is drawn, so that their answers cost the first screen nothing; the others go at
 * once when the first fails, and none waits for ever on a first one that is slow.
 */
import { describe, expect, it } from "vitest";
import type { AccountsRegistry } from "../../src/sync/accounts-registry.js";
import { startAccounts } from "../../src/sync/accounts-start.js";

/** A registry of accounts whose starts are recorded and ended by the test. */
function accounts(keys: string[]) {
  const started: string[] = [];
  const ends = new Map<string, { ok(): void; fail(e: Error): void }>();
  const stores = new Map<string, object>();
  let active: string | undefined;
  const registry = {
    list: () => keys.map((key) => ({ key })),
    get: (key: string) => ({ key, store: () => stores.get(key) }),
    active: () => (active === undefined ? undefined : { key: active, store: () => stores.get(active!) }),
    setActive: (key: string) => void (active = key),
    runtime: (key: string) => ({
      start: () =>
        new Promise<void>((ok, fail) => {
          started.push(key);
          ends.set(key, {
            ok: () => {
              stores.set(key, {});
              ok();
            },
            fail,
          });
        }),
    }),
  } as unknown as AccountsRegistry;
  return { registry, started, ends };
}

const turn = () => new Promise((r) => setTimeout(r, 5));
async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await turn();
  if (!ok()) throw new Error(`never: ${what}`);
}

describe("starting several accounts", () => {
  it("builds the others' stores only once the first screen is drawn", async () => {
    const { registry, started, ends } = accounts(["a", "b", "c"]);
    let drawn!: () => void;
    const s = startAccounts(registry, undefined, { firstDrawn: new Promise((r) => (drawn = r)), patienceMs: 60_000 });
    await until("the first started", () => started.includes("a"));
    ends.get("a")!.ok();
    expect(await s.firstReady).toBe("a");
    await turn();
    expect(started).toEqual(["a"]);
    drawn();
    await until("the others started", () => started.length === 3);
    expect(started.slice(1).sort()).toEqual(["b", "c"]);
  });

  it("lets the others go at once when the first fails, and after its patience when the first is slow", async () => {
    const failing = accounts(["a", "b"]);
    const s = startAccounts(failing.registry, undefined, { firstDrawn: new Promise(() => undefined), patienceMs: 60_000 });
    await until("the first started", () => failing.started.includes("a"));
    failing.ends.get("a")!.fail(new Error("refused"));
    await until("the other started", () => failing.started.includes("b"));
    failing.ends.get("b")!.ok();
    expect(await s.firstReady).toBe("b");

    const slow = accounts(["a", "b"]);
    const t = startAccounts(slow.registry, undefined, { firstDrawn: new Promise(() => undefined), patienceMs: 50 });
    await until("the other started after the patience", () => slow.started.includes("b"));
    slow.ends.get("b")!.ok();
    expect(await t.firstReady).toBe("b");
  });
});
