/**
 * One account's live connection and everything around it, wired together:
 * the update machine, commands, outbox, draft journal and sync, presence
 * reporter and typing notifier. The UI talks to this object.
 */
import type { ApiClient } from "../api/http.js";
import { CacheKeeper } from "./cache.js";
import { Commands } from "./commands.js";
import { realClock, type Clock } from "./clock.js";
import { DraftJournal, draftKey, editKey } from "./draft-journal.js";
import { DraftSync, type DraftSyncOptions } from "./draft-sync.js";
import { Outbox, type OutboxEntry, type OutboxOptions } from "./outbox.js";
import type { SendTarget } from "./outbox-file.js";
import { defaultStateDir, type AccountRef } from "./persist.js";
import { PresenceReporter, type PresenceOptions } from "./presence-reporter.js";
import { TypingNotifier, type TypingOptions } from "./typing-notifier.js";
import { UpdateMachine, type UpdateMachineOptions } from "./update-machine.js";

export interface SyncSessionOptions {
  client: ApiClient;
  account: AccountRef;
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
}

export class SyncSession {
  private lastKeyAt: number;
  private readonly cleanups: Array<() => void> = [];
  /** The local cache, when used (see cache.ts). */
  cache: CacheKeeper | undefined;
  /** Edits of a message's text made offline, saved when live. */

  private constructor(
    readonly machine: UpdateMachine,
    readonly commands: Commands,
    readonly outbox: Outbox,
    readonly journal: DraftJournal,
    readonly drafts: DraftSync,
    readonly presence: PresenceReporter,
    readonly typing: TypingNotifier,
    private readonly nudgeAfterIdleMs: number,
  ) {
    this.lastKeyAt = machine.clock.now();
    // An edit queued while offline and saved later: its text is no longer needed.
    this.cleanups.push(outbox.edits.onSettled((e, o) => o.kind === "saved" && e.params.content !== undefined && journal.clear(editKey(e.messageId))));
  }

  /** Opens the local state (journal, outbox) and wires everything; `machine.start()` connects. */
  static async open(o: SyncSessionOptions): Promise<SyncSession> {
    const clock = o.clock ?? realClock;
    const dir = o.stateDir ?? defaultStateDir();
    const machine = new UpdateMachine(o.client, { ...o.machine, clock });
    const journal = await DraftJournal.open({ dir, account: o.account, clock, debounceMs: o.journalDebounceMs });
    const outbox = await Outbox.open(machine, { ...o.outbox, dir, account: o.account });
    const cache = o.cacheDir ? await CacheKeeper.open(machine, { dir: o.cacheDir, account: o.account, clock }) : undefined;
    const session = new SyncSession(
      machine,
      new Commands(machine),
      outbox,
      journal,
      new DraftSync(machine, journal, o.drafts),
      new PresenceReporter(machine, o.presence),
      new TypingNotifier(machine, o.typing),
      o.nudgeAfterIdleMs ?? 30_000,
    );
    session.cache = cache;
    return session;
  }

  /** The address this session is signed in as. */
  get selfEmail(): string {
    return this.machine.client.email;
  }

  /** From the keypress bus, for every key: presence, and a quick reconnect after a long idle. */
  keyPressed(): void {
    const now = this.machine.clock.now();
    if (now - this.lastKeyAt >= this.nudgeAfterIdleMs) this.machine.nudge();
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
  }
}
