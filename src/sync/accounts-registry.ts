/**
 * Every account open in this process, each in its own runtime (as
 * zulip-flutter's global store holds one per-account store each): open,
 * close, list, and the one on screen (the active one). The registry's own
 * feed tells when an account opens or closes and when the active one
 * changes; what happens inside an account is told on that account's feed.
 *
 * One account's trouble stays its own: each runtime has its own connection,
 * store, outbox, journal and timers, and closing one leaves the others as
 * they were.
 */
import { accountHandle, type AccountHandle, type AccountsAdmin, type AccountsView, type RegistryChange } from "./account-handle.js";

export type { AccountsView, RegistryChange } from "./account-handle.js";
import { AccountRuntime, type AccountRuntimeOptions } from "./account-runtime.js";

interface Entry {
  runtime: AccountRuntime;
  handle: AccountHandle;
  /** How it was opened, to open it again (reconnect). */
  options?: AccountRuntimeOptions;
}

export class AccountsRegistry implements AccountsView {
  private readonly entries = new Map<string, Entry>();
  private activeKey: string | undefined;
  private readonly listeners = new Set<(change: RegistryChange) => void>();
  /** Adding and removing accounts (the program that knows where accounts live sets it). */
  admin: AccountsAdmin | undefined;

  /** Opens an account's runtime (its local state: journal, outbox, cache) and holds it; the runtime's `start` connects. */
  async open(o: AccountRuntimeOptions): Promise<{ runtime: AccountRuntime; handle: AccountHandle }> {
    const runtime = await AccountRuntime.open(o);
    if (this.entries.has(runtime.key)) {
      // Opened twice (the same site and user): the first one stays, the second is given up.
      await runtime.dispose();
      throw new Error(`${o.account.email} on ${o.account.site} is open already`);
    }
    return { runtime, handle: this.add(runtime, o) };
  }

  /** Holds a runtime opened elsewhere (with the options it was opened with, to reconnect); the first account held becomes the active one. */
  add(runtime: AccountRuntime, options?: AccountRuntimeOptions): AccountHandle {
    const held = this.entries.get(runtime.key);
    if (held) return held.handle;
    const handle = accountHandle(runtime);
    this.entries.set(runtime.key, { runtime, handle, options });
    this.emit({ kind: "opened", key: runtime.key });
    if (this.activeKey === undefined) this.setActive(runtime.key);
    return handle;
  }

  /** Closes an account: its local state saved, its connection ended. The active one passes to another open one. */
  async close(key: string, timeoutMs?: number): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (this.activeKey === key) {
      this.activeKey = this.entries.keys().next().value;
      this.emit({ kind: "active", key: this.activeKey });
    }
    this.emit({ kind: "closed", key });
    await entry.runtime.dispose(timeoutMs);
  }

  async disconnect(key: string): Promise<void> {
    await this.entries.get(key)?.runtime.dispose();
  }

  /**
   * Opens the account again from how it was first opened and connects it: a new runtime (its
   * local state read back) and a new handle in place of the old, told as opened again. The
   * connection's outcome is the account's state, as at start.
   */
  async reconnect(key: string): Promise<boolean> {
    const entry = this.entries.get(key);
    if (!entry?.options) return false;
    await entry.runtime.dispose();
    const runtime = await AccountRuntime.open(entry.options);
    if (this.entries.get(key) !== entry) {
      await runtime.dispose(); // closed meanwhile
      return false;
    }
    this.entries.set(key, { runtime, handle: accountHandle(runtime), options: entry.options });
    this.emit({ kind: "opened", key });
    if (this.activeKey === key) this.emit({ kind: "active", key });
    void runtime.start().catch(() => undefined); // a failure is the account's state, shown on its row
    return true;
  }

  /** Closes every account, all at once (each bounded in time). */
  async closeAll(timeoutMs?: number): Promise<void> {
    await Promise.all([...this.entries.keys()].map((key) => this.close(key, timeoutMs)));
  }

  list(): AccountHandle[] {
    return [...this.entries.values()].map((e) => e.handle);
  }

  get(key: string): AccountHandle | undefined {
    return this.entries.get(key)?.handle;
  }

  /** The runtime behind a handle: for the program's entry and tests, never for the screen. */
  runtime(key: string): AccountRuntime | undefined {
    return this.entries.get(key)?.runtime;
  }

  active(): AccountHandle | undefined {
    return this.activeKey === undefined ? undefined : this.entries.get(this.activeKey)?.handle;
  }

  setActive(key: string): void {
    if (!this.entries.has(key) || this.activeKey === key) return;
    this.activeKey = key;
    this.emit({ kind: "active", key });
  }

  subscribe(fn: (change: RegistryChange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(change: RegistryChange): void {
    for (const fn of this.listeners) fn(change);
  }
}
