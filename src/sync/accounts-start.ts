/**
 * Connecting every open account at once. Each runtime starts on its own: one
 * organization that is down, slow or refuses the key never holds up the
 * others (each has its own connection, its own backoff and its own state,
 * which the screen shows on that organization's row). The screen can draw as
 * soon as any account has a store — the local cache's from the last run
 * counts, so a start from the cache waits for no server — and the account on
 * screen is the first that has one, unless one with a store is on screen
 * already.
 */
import type { AccountsRegistry } from "./accounts-registry.js";

export interface StartedAccounts {
  /** The key of the first account with a store (the cache's or the server's); undefined once every start has failed. */
  firstReady: Promise<string | undefined>;
  /** Every start settled: the keys whose start failed for good (a refused key, a deactivated account), with why. */
  settled: Promise<Array<{ key: string; error: unknown }>>;
}

export interface StartOptions {
  /**
   * The first account's screen is drawn: the others build their stores after it, so that their
   * answers (asked for at once, side by side) cost the first screen nothing. They start anyway
   * when the first account fails, or after `patienceMs` (a slow first one holds no other up long).
   */
  firstDrawn?: Promise<void>;
  patienceMs?: number;
}

/** Starts every account of the registry (or those of `only`): the first one at once, the others as `o` says, or at once. */
export function startAccounts(registry: AccountsRegistry, only?: readonly string[], o: StartOptions = {}): StartedAccounts {
  const keys = registry.list().map((h) => h.key).filter((k) => !only || only.includes(k));
  let ready!: (key: string | undefined) => void;
  const firstReady = new Promise<string | undefined>((r) => (ready = r));
  const show = (key: string) => {
    // The account on screen stays unless it has nothing to draw yet.
    if (!registry.active()?.store()) registry.setActive(key);
    ready(registry.active()?.key ?? key);
  };
  // An account drawn from its cache is ready before any server answers.
  const cached = keys.find((k) => registry.get(k)?.store());
  if (cached) show(cached);
  // The first: the one drawn from its cache, else the first listed.
  const first = cached ?? keys[0];
  let letOthersGo!: () => void;
  const othersGo = o.firstDrawn ? new Promise<void>((r) => (letOthersGo = r)) : Promise.resolve();
  if (o.firstDrawn) {
    void o.firstDrawn.then(() => letOthersGo());
    setTimeout(() => letOthersGo(), o.patienceMs ?? 500).unref?.();
  }
  const failures: Array<{ key: string; error: unknown }> = [];
  const settled = Promise.all(
    keys.map(async (key) => {
      const runtime = registry.runtime(key);
      if (!runtime) return;
      if (key !== first) await othersGo;
      try {
        await runtime.start();
        show(key);
      } catch (error) {
        failures.push({ key, error });
        if (key === first) letOthersGo?.();
      }
    }),
  ).then(() => {
    ready(undefined); // no effect when one was ready
    return failures;
  });
  return { firstReady, settled };
}
