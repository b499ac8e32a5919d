/**
 * One account, live: its connection (the update machine: register, event
 * loop, store), the commands the views need, the outbox and its edit lane,
 * the draft journal and draft sync, the local cache, presence and typing —
 * and all the upkeep that runs over time whether or not a screen shows the
 * account: typing notices expiring, the register's records checked, new
 * messages turned into notifications, kept edits' outcomes and a newer
 * server's unfamiliar events told, and what the screen looks at kept loaded
 * and marked read (`setView`). Everything that changes is told on one change
 * feed (`subscribe`).
 *
 * The screen never holds a runtime: it is given an account handle
 * (account-handle.ts), the store to read and the actions bound to this account.
 * Several runtimes live side by side in an accounts registry.
 */
import type { ApiClient } from "../api/http.js";
import { moveOf } from "../model/moves.js";
import type { Store } from "../model/store.js";
import { ChangeFeed, type AccountChange, type Notice } from "./account-changes.js";
import { CacheKeeper } from "./cache.js";
import { Commands } from "./commands.js";
import { realClock, type Clock } from "./clock.js";
import { DraftJournal, draftKey, editKey } from "./draft-journal.js";
import { DraftSync, type DraftSyncOptions } from "./draft-sync.js";
import { Outbox, type OutboxEntry, type OutboxOptions } from "./outbox.js";
import type { SendTarget } from "./outbox-file.js";
import { accountStem, defaultStateDir, type AccountRef } from "./persist.js";
import { PresenceReporter, type PresenceOptions } from "./presence-reporter.js";
import { TypingNotifier, type TypingOptions } from "./typing-notifier.js";
import { UpdateMachine, type StoreReason, type UpdateMachineOptions } from "./update-machine.js";
import { Notifier } from "./upkeep/notifier.js";
import { checkRecordsInTurns, RECORD_CHECK_GRACE_MS, type NextTurn } from "./upkeep/record-checks.js";
import { TypingExpiry } from "./upkeep/typing-expiry.js";
import { ViewUpkeep, type ViewInput } from "./upkeep/view-upkeep.js";

export interface AccountRuntimeOptions {
  client: ApiClient;
  account: AccountRef;
  /** What the user calls the account (its zuliprc name): the sidebar's section and the notifications say it. Default: the address. */
  name?: string;
  /** Where the outbox and the draft journal live. Default: `defaultStateDir()`. */
  stateDir?: string;
  clock?: Clock;
  machine?: Omit<UpdateMachineOptions, "clock">;
  outbox?: Omit<OutboxOptions, "dir" | "account">;
  drafts?: DraftSyncOptions;
  presence?: PresenceOptions;
  typing?: TypingOptions;
  journalDebounceMs?: number;
  /** The local cache's directory: the start draws from it and it is kept current. Undefined: no cache. */
  cacheDir?: string;
  /** A key press after this much quiet cuts a pending reconnect backoff short. Default 30 s. */
  nudgeAfterIdleMs?: number;
  /** At most one notification per this long (a burst becomes one). Default 1 s. */
  notifyIntervalMs?: number;
  /** How the register's records are checked once the account is on screen (tests turn by hand). */
  recordChecks?: { batch?: number; nextTurn?: NextTurn; startAfterMs?: number };
}

/** Said once when the server sends kinds of event this client does not know (a newer server). */
export const UNFAMILIAR_NOTE = "This server sends things termchat does not know yet; they are not shown.";

export class AccountRuntime {
  /** Which account this is (the organization and the user), the same across runs. */
  readonly key: string;
  /** What the user calls the account (its zuliprc name, else the address). */
  readonly name: string;
  private lastKeyAt: number;
  private readonly cleanups: Array<() => void> = [];
  private readonly feed = new ChangeFeed();
  private readonly upkeep: ViewUpkeep;
  private readonly notifier: Notifier;
  private readonly typingExpiry: TypingExpiry;
  private watched: { store: Store; off: () => void } | undefined;
  /** The store whose records are being (or were) checked, and how to stop. */
  private checks: { store: Store; stop: () => void; users: boolean } | undefined;
  /** A screen has said what it shows: the account is on screen (records are checked from then on). */
  private shown = false;
  private unfamiliarTold = false;

  private constructor(
    readonly account: AccountRef,
    readonly machine: UpdateMachine,
    readonly commands: Commands,
    readonly outbox: Outbox,
    readonly journal: DraftJournal,
    readonly drafts: DraftSync,
    readonly presence: PresenceReporter,
    readonly typing: TypingNotifier,
    /** The local cache, when used (see cache.ts). */
    readonly cache: CacheKeeper | undefined,
    private readonly o: AccountRuntimeOptions,
  ) {
    this.key = accountStem(account);
    this.name = o.name ?? account.email;
    const clock = machine.clock;
    this.lastKeyAt = clock.now();
    this.notifier = new Notifier(clock, (note) => this.feed.emit({ kind: "notify", note }), o.notifyIntervalMs);
    this.typingExpiry = new TypingExpiry(clock);
    this.upkeep = new ViewUpkeep({
      store: () => machine.store,
      live: (store) => !cache?.isCached(store),
      commands,
      noteView: (narrow) => cache?.noteView(narrow),
    });
    if (machine.store) this.watch(machine.store); // the local cache's, drawn before the server answers
    this.cleanups.push(
      machine.onStore((store, info) => this.replaced(store, info.reason)),
      machine.onState((state) => {
        this.feed.emit({ kind: "connection", state });
        // An answer the client gave up itself (too large once decompressed, or trickling in too
        // slowly) is said in a notice that stays until the next key: "reconnecting…" in the
        // status line lasts only until the account is back, which may be a moment.
        if (state.kind === "reconnecting" && state.abandoned) this.tell(state.error, "error");
      }),
      machine.onEvents((events, store) => {
        this.notifier.events(events, store);
        for (const e of events) {
          const move = e.type === "update_message" ? moveOf(e) : undefined;
          if (move) this.feed.emit({ kind: "moved", move, store });
        }
      }),
      machine.onUnfamiliar(() => this.tellUnfamiliar()),
      outbox.onChange(() => this.feed.emit({ kind: "outbox" })),
      outbox.edits.onSettled((e, outcome) => {
        // An edit queued while offline and saved later: its text is no longer needed.
        if (outcome.kind === "saved" && e.params.content !== undefined) journal.clear(editKey(e.messageId));
        if (outcome.kind === "saved") this.tell("A kept edit was saved.");
        else if (outcome.kind === "failed") {
          const kept = e.params.content !== undefined ? " Your text is kept: press e on the message to try again." : "";
          this.tell(`Edit not saved: ${outcome.error.replace(/\.?$/, ".")}${kept}`, "error");
        }
      }),
      journal.onChange(() => this.feed.emit({ kind: "journal" })),
    );
    if (machine.unfamiliar.size > 0) this.tellUnfamiliar();
  }

  /** Opens the local state (journal, outbox, cache) and wires everything; `start()` connects. */
  static async open(o: AccountRuntimeOptions): Promise<AccountRuntime> {
    const clock = o.clock ?? realClock;
    const dir = o.stateDir ?? defaultStateDir();
    const machine = new UpdateMachine(o.client, { ...o.machine, clock });
    // The journal's and the outbox's files are read (each in a few turns of the event loop) while
    // the cache's store is built.
    const cacheOptions = o.cacheDir ? { dir: o.cacheDir, account: o.account, clock } : undefined;
    const opening = Promise.all([DraftJournal.open({ dir, account: o.account, clock, debounceMs: o.journalDebounceMs }), Outbox.open(machine, { ...o.outbox, dir, account: o.account })]);
    const cacheRead = cacheOptions && CacheKeeper.read(cacheOptions);
    const [journal, outbox] = await opening;
    const cache = cacheOptions ? await CacheKeeper.open(machine, cacheOptions, cacheRead) : undefined;
    return new AccountRuntime(
      o.account,
      machine,
      new Commands(machine),
      outbox,
      journal,
      new DraftSync(machine, journal, o.drafts),
      new PresenceReporter(machine, o.presence),
      new TypingNotifier(machine, o.typing),
      cache,
      o,
    );
  }

  /** Registers and builds the first store; then keeps it current in the background. */
  start(): Promise<Store> {
    return this.machine.start();
  }

  /** Everything that changes in this account, in one feed. */
  subscribe(fn: (change: AccountChange) => void): () => void {
    return this.feed.subscribe(fn);
  }

  /** Notices told while no screen listened (a kept edit saved before the first frame, say), once. */
  takeNotices(): Notice[] {
    return this.feed.takeUnheard();
  }

  get store(): Store | undefined {
    return this.machine.store;
  }

  /** The address this account is signed in as ("" for a spectator). */
  get selfEmail(): string {
    return this.machine.client.email;
  }

  /** Reading without an account: the organization's web-public channels, no queue, nothing written. */
  get spectator(): boolean {
    return this.machine.client.spectator;
  }

  /** What the screen shows of this account now; the upkeep follows it (upkeep/view-upkeep.ts). */
  setView(v: Partial<ViewInput>): void {
    this.shown = true;
    if (this.store) this.checkRecords(this.store);
    this.upkeep.set(v);
  }

  /** From the keypress bus, for every key: presence, and a quick reconnect after a long idle. */
  keyPressed(): void {
    const now = this.machine.clock.now();
    if (now - this.lastKeyAt >= (this.o.nudgeAfterIdleMs ?? 30_000)) this.machine.nudge();
    this.lastKeyAt = now;
    this.presence.keyPressed();
  }

  /** The compose box's text changed: journal it (never lost) and tell the others we are typing. */
  composeChanged(target: SendTarget, text: string): void {
    this.journal.update(draftKey(target), text, target);
    if (text.trim() === "") this.typing.stop();
    else this.typing.keystroke(target);
  }

  /** The compose box opened on a conversation: its restored text, if any. */
  composeOpened(target: SendTarget): string | undefined {
    const key = draftKey(target);
    this.drafts.setEditing(key);
    return this.journal.get(key);
  }

  composeClosed(): void {
    this.drafts.setEditing(undefined);
    this.typing.stop();
  }

  /**
   * Sends through the outbox: returns at once (the entry shows as pending if
   * it takes more than 500 ms); the journal forgets the text, the server draft
   * is deleted, typing stops.
   */
  send(target: SendTarget, text: string): OutboxEntry {
    const entry = this.outbox.enqueue(target, text);
    this.journal.clear(draftKey(target));
    this.typing.stop();
    return entry;
  }

  /** SIGCONT (resumed after Ctrl-Z) cuts a pending backoff short. */
  installSignalHandlers(proc: NodeJS.Process = process): void {
    const onCont = () => {
      this.machine.nudge();
      this.presence.keyPressed();
    };
    proc.on("SIGCONT", onCont);
    this.cleanups.push(() => proc.off("SIGCONT", onCont));
  }

  /** Saves everything local, stops timers and the connection. Bounded in time. */
  async dispose(timeoutMs = 1500): Promise<void> {
    for (const c of this.cleanups.splice(0)) c();
    this.watched?.off();
    this.checks?.stop();
    this.notifier.dispose();
    this.typingExpiry.cancel();
    this.typing.dispose();
    this.presence.dispose();
    const work = (async () => {
      await this.commands.flushRead();
      this.commands.dispose();
      await this.drafts.flush().catch(() => undefined);
      this.drafts.dispose();
      await this.journal.dispose();
      await this.outbox.dispose();
      await this.cache?.dispose();
      await this.machine.stop();
    })();
    await Promise.race([work, new Promise((r) => realClock.setTimeout(() => r(undefined), timeoutMs))]);
    // The machine's own listeners are gone by now: a screen still showing the account hears it ended.
    this.feed.emit({ kind: "connection", state: this.machine.state });
  }

  private tell(text: string, kind: Notice["kind"] = "info"): void {
    this.feed.emit({ kind: "notice", notice: { text, kind } });
  }

  private tellUnfamiliar(): void {
    if (this.unfamiliarTold) return;
    this.unfamiliarTold = true;
    this.tell(UNFAMILIAR_NOTE);
  }

  /** A new store: watched from now on, told, and the upkeep starts over on it. */
  private replaced(store: Store, reason: StoreReason): void {
    this.watch(store);
    this.feed.emit({ kind: "store", store, reason });
    if (this.shown) this.checkRecords(store);
    this.upkeep.storeReplaced();
  }

  private watch(store: Store): void {
    this.watched?.off();
    this.watched = { store, off: store.subscribe(() => this.changed(store)) };
    this.typingExpiry.update(store);
  }

  private changed(store: Store): void {
    if (store !== this.machine.store) return;
    this.typingExpiry.update(store);
    // The user list came after the register (sync/user-list.ts): its records are checked too.
    if (this.checks?.store === store && !this.checks.users && store.people.complete) this.checkRecords(store, true);
    this.feed.emit({ kind: "changed", store });
    this.upkeep.run();
  }

  /** The register's users and channels not checked yet, a batch per turn; malformed ones are told in one line. */
  private checkRecords(store: Store, again = false): void {
    if (this.checks?.store === store && !again) return;
    this.checks?.stop();
    const stop = checkRecordsInTurns(store, { startAfterMs: RECORD_CHECK_GRACE_MS, ...this.o.recordChecks, onMalformed: (text) => this.tell(text, "error") });
    this.checks = { store, stop, users: store.people.complete };
  }
}
