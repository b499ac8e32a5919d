/**
 * The app with several accounts: every configured one (or those the settings
 * name) connected at once, each through its own runtime in one registry. All
 * registers leave together; the screen draws as soon as any account has
 * something to show (its cache from the last run, or its server's answer),
 * and one organization that is down, slow or refuses the key never holds up
 * the others: it says so on its own row and keeps trying (a refused key
 * waits for the user). The start fails with one line per account only when
 * every one of them failed for good.
 */
import type { ApiClient } from "../api/http.js";
import { describeError } from "../api/errors.js";
import { registerRequest } from "../api/register-request.js";
import type { SettingsFile } from "../config/settings.js";
import { registerParamsFor } from "../sync/register-params.js";
import { clientForAccount, type Account } from "./account.js";
import { accountsAdmin } from "./accounts-admin.js";
import { INSECURE_NOTE } from "./tls-files.js";
import { cachePath, defaultCacheDir, readAhead } from "../sync/cache-ahead.js";

/** An account with its name; `connect`: connected at start (else listed, and connected from the palette). */
export type NamedAccount = Account & { name: string; connect: boolean };

export interface SeveralOptions {
  color: boolean;
  noCache: boolean;
  settingsFile: SettingsFile;
  afterFirstFrame: () => void;
}

/** Runs the app on several accounts until it is quit. Returns the lines to print when no account could be used. */
export async function runSeveral(accounts: NamedAccount[], o: SeveralOptions): Promise<{ failed?: string[] }> {
  const clients: ApiClient[] = [];
  const clientFor = async (a: Account) => {
    // The same client as a single account's (a spectator's entry sends no credentials).
    const client = await clientForAccount(a);
    clients.push(client);
    // Every register leaves now, side by side: the code that reads the answers loads meanwhile,
    // once the requests are on their way.
    await client.prefetch("POST", "register", registerRequest(registerParamsFor(client)));
    return { client, insecure: Boolean(a.insecure) };
  };
  const opened = await Promise.all(accounts.map(async (a) => ({ a, ...(await clientFor(a)) })));
  const cacheDir = o.noCache ? undefined : defaultCacheDir();
  // Their files are read and decompressed before the code that uses them loads (cache-ahead.ts).
  if (cacheDir) for (const { a, client } of opened) readAhead(cachePath(cacheDir, { site: client.site.href, email: a.email }));
  const uiReady = import("../ui/run.js");
  const [{ AccountsRegistry }, { startAccounts }, { checkedRegister }, { AccountRuntime }] = await Promise.all([
    import("../sync/accounts-registry.js"),
    import("../sync/accounts-start.js"),
    import("../sync/start-guard.js"),
    import("../sync/account-runtime.js"),
  ]);
  const registry = new AccountsRegistry();
  const notes: string[] = [];
  // Each account's local state opens on its own; one that cannot (its outbox unreadable, say) is said, the others go on.
  const optionsOf = (client: ApiClient, a: Account & { name: string }) => ({ client, name: a.name, account: { site: client.site.href, email: a.email }, cacheDir, machine: { api: { register: checkedRegister() } } });
  registry.admin = accountsAdmin(registry, async (a) => optionsOf((await clientFor(a)).client, a));
  const runtimes = await Promise.all(
    opened.map(async ({ a, client }) => {
      const options = optionsOf(client, a);
      try {
        return { rt: await AccountRuntime.open(options), options, connect: a.connect };
      } catch (err) {
        notes.push(`${a.name}: ${describeError(err)}`);
        return undefined;
      }
    }),
  );
  const connect: string[] = [];
  for (const opened of runtimes) {
    if (!opened) continue;
    const { rt, options } = opened;
    if (registry.get(rt.key)) {
      notes.push(`${rt.name}: the same account as ${registry.get(rt.key)!.name}; opened once`);
      void rt.dispose();
      continue;
    }
    registry.add(rt, options);
    rt.installSignalHandlers();
    if (opened.connect) connect.push(rt.key);
    else await rt.dispose(); // listed as disconnected, drawn from its cache if it has one
    if (rt.cache?.note) notes.push(`${rt.name}: ${rt.cache.note}`);
  }
  if (registry.list().length === 0) return { failed: notes };
  // The others' stores are built once the first screen is drawn (their answers arrive meanwhile).
  let drawn!: () => void;
  const firstDrawn = new Promise<void>((r) => (drawn = r));
  const started = startAccounts(registry, connect, { firstDrawn });
  const ui = await uiReady;
  if (opened.some((x) => x.insecure)) notes.unshift(INSECURE_NOTE);
  const app = ui.runApp({ account: registry.active()!, accounts: registry, settings: o.settingsFile.settings, color: o.color, startNotice: notes.length > 0 ? { text: notes.join(" "), kind: "error" } : undefined }, () => {
    drawn();
    o.afterFirstFrame();
  });
  // Every account failed for good (refused keys, say): the screen would have nothing to show.
  let failed: string[] | undefined;
  void started.settled.then((failures) => {
    if (connect.length === 0 || failures.length < connect.length) return;
    failed = failures.map((f) => {
      const h = registry.get(f.key);
      const state = h?.connection();
      return `${h?.name ?? f.key}: ${state?.kind === "failed" ? state.error : describeError(f.error)}`;
    });
    app.unmount();
  });
  await app.waitUntilExit();
  await registry.closeAll(1500);
  await Promise.all(clients.map((client) => client.close()));
  return { failed };
}
