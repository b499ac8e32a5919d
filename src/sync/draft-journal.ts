/**
 * The draft journal: compose text never lost. Every change is kept in
 * memory at once and written to disk shortly after (debounced ~300 ms, at
 * most ~2 s behind a stream of keys), atomically (temp file, fsync, rename),
 * one file per account, mode 0600. After a crash or `kill -9` the next start
 * finds every conversation's text as of the last write.
 *
 * Keys name conversations (`draftKey(target)`); other strings work too but
 * are not synced to the server's drafts.
 */
import { join } from "node:path";
import * as z from "zod";
import { Debouncer, realClock, type Clock } from "./clock.js";
import type { SendTarget } from "./outbox-file.js";
import { accountStem, FileWriter, readJsonFile, removeStaleTemps, type AccountRef } from "./persist.js";

export interface JournalEntry {
  key: string;
  text: string;
  /** Last local change (ms). */
  updatedAt: number;
  /** The server draft holding this text, once synced. */
  serverId?: number;
  /** The text the server has (undefined: nothing synced yet). */
  syncedText?: string;
  /** Timestamp (s) of the server's version we last took or wrote. */
  serverTimestamp?: number;
}

const entrySchema = z.lazy(() => z.object({
  key: z.string(),
  text: z.string(),
  updatedAt: z.number(),
  serverId: z.number().int().optional(),
  syncedText: z.string().optional(),
  serverTimestamp: z.number().optional(),
}));
const fileSchema = z.lazy(() => z.object({ version: z.literal(1), entries: z.array(z.unknown()) }));

/** The journal key of a conversation; topics compare case-insensitively, like the server. */
export function draftKey(t: SendTarget): string {
  return t.type === "stream"
    ? `stream:${t.channelId}:${t.topic.toLowerCase()}`
    : `dm:${[...new Set(t.userIds)].sort((a, b) => a - b).join(",")}`;
}

/** The journal key of an edit in progress of a message (never synced as a server draft). */
export function editKey(messageId: number): string {
  return `edit:${messageId}`;
}

export interface JournalOptions {
  dir: string;
  account: AccountRef;
  clock?: Clock;
  debounceMs?: number;
  maxWaitMs?: number;
}

export class DraftJournal {
  private readonly entries = new Map<string, JournalEntry>();
  /** The conversation target behind a key, when known (to sync it). */
  private readonly targets = new Map<string, SendTarget>();
  private readonly listeners = new Set<(key: string, origin: "local" | "remote") => void>();
  private readonly writer: FileWriter;
  private readonly debounce: Debouncer;
  readonly clock: Clock;
  readonly path: string;

  private constructor(opts: JournalOptions) {
    this.clock = opts.clock ?? realClock;
    this.path = join(opts.dir, `drafts-${accountStem(opts.account)}.json`);
    this.writer = new FileWriter(this.path, opts.dir, () => ({ version: 1, entries: [...this.entries.values()], targets: [...this.targets] }));
    const wait = opts.debounceMs ?? 300;
    this.debounce = new Debouncer(this.clock, wait, () => void this.writer.write(), opts.maxWaitMs ?? Math.max(wait, 2000));
  }

  /** Opens the account's journal with what the last run (or crash) left. */
  static async open(opts: JournalOptions): Promise<DraftJournal> {
    const j = new DraftJournal(opts);
    await removeStaleTemps(j.path);
    const raw = await readJsonFile(j.path);
    const parsed = fileSchema.safeParse(raw);
    if (parsed.success) {
      for (const e of parsed.data.entries) {
        const r = entrySchema.safeParse(e);
        if (r.success) j.entries.set(r.data.key, r.data);
      }
      const targets = (raw as { targets?: unknown }).targets;
      if (Array.isArray(targets)) {
        for (const pair of targets) {
          if (Array.isArray(pair) && typeof pair[0] === "string" && pair[1] && typeof pair[1] === "object") {
            j.targets.set(pair[0], pair[1] as SendTarget);
          }
        }
      }
    }
    return j;
  }

  /** `origin` tells a local edit from a draft taken from the server. */
  onChange(fn: (key: string, origin: "local" | "remote") => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Records the compose text of a conversation (call on every change; cheap). */
  update(key: string, text: string, target?: SendTarget): void {
    if (target) this.targets.set(key, target);
    const have = this.entries.get(key);
    if (have && have.text === text) return;
    if (!have && text === "") return;
    this.entries.set(key, { ...have, key, text, updatedAt: this.clock.now() });
    this.debounce.trigger();
    for (const fn of this.listeners) fn(key, "local");
  }

  get(key: string): string | undefined {
    const t = this.entries.get(key)?.text;
    return t === "" ? undefined : t;
  }

  entry(key: string): JournalEntry | undefined {
    return this.entries.get(key);
  }

  targetOf(key: string): SendTarget | undefined {
    return this.targets.get(key) ?? parseDraftKey(key);
  }

  /** Every conversation with text, newest change first (to offer restores). */
  all(): JournalEntry[] {
    return [...this.entries.values()].filter((e) => e.text !== "").sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Entries that still need syncing (including emptied ones the server still has). */
  entriesForSync(): JournalEntry[] {
    return [...this.entries.values()];
  }

  /** Forgets a conversation's text (after it was sent). The server copy is deleted by draft sync. */
  clear(key: string): void {
    const have = this.entries.get(key);
    if (!have || have.text === "") return;
    this.entries.set(key, { ...have, text: "", updatedAt: this.clock.now() });
    this.debounce.trigger();
    for (const fn of this.listeners) fn(key, "local");
  }

  /** Draft sync records what the server holds. */
  noteSynced(key: string, info: { serverId?: number; syncedText?: string; serverTimestamp?: number }): void {
    const have = this.entries.get(key);
    if (!have) return;
    const next = { ...have, ...info };
    if (info.serverId === undefined && "serverId" in info) delete next.serverId;
    // An emptied entry the server no longer has is done with.
    if (next.text === "" && next.serverId === undefined) this.entries.delete(key);
    else this.entries.set(key, next);
    this.debounce.trigger();
  }

  /** A draft changed on the server (another client): take its text. */
  applyRemote(key: string, target: SendTarget | undefined, text: string, info: { serverId?: number; serverTimestamp?: number }): void {
    if (target) this.targets.set(key, target);
    const have = this.entries.get(key);
    if (text === "" && !have) return;
    this.entries.set(key, {
      ...have,
      key,
      text,
      updatedAt: this.clock.now(),
      serverId: info.serverId,
      syncedText: text,
      serverTimestamp: info.serverTimestamp,
    });
    if (text === "" && info.serverId === undefined) this.entries.delete(key);
    this.debounce.trigger();
    for (const fn of this.listeners) fn(key, "remote");
  }

  /** Resolves when no write is under way (a pending debounced one is not started). */
  idle(): Promise<void> {
    return this.writer.idle();
  }

  /** Writes now (on exit, after a send). */
  async flush(): Promise<void> {
    this.debounce.cancel();
    await this.writer.write();
    await this.writer.idle();
  }

  /** Writes what is pending and stops the timer. */
  async dispose(): Promise<void> {
    await this.flush();
  }
}

/** The target behind a `draftKey` (topic case as stored: lower case). */
export function parseDraftKey(key: string): SendTarget | undefined {
  let m = /^stream:(\d+):(.*)$/s.exec(key);
  if (m) return { type: "stream", channelId: Number(m[1]), topic: m[2] ?? "" };
  m = /^dm:(\d+(?:,\d+)*)$/.exec(key);
  if (m) return { type: "direct", userIds: (m[1] ?? "").split(",").map(Number) };
  return undefined;
}
