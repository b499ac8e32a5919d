/**
 * Draft sync: the local journal (draft-journal.ts) is the truth for the UI;
 * this keeps the server's drafts in step with it, both ways.
 *
 * - Local changes go to the server debounced (create, edit, delete via
 *   /drafts) while the connection is live; failures are retried later.
 *   Creating is not idempotent: after a create of unknown fate the server's
 *   list is read first and a matching draft adopted instead of creating twice.
 * - The register's `drafts` and `drafts` events bring other clients'
 *   changes: a conversation we are not editing (not open in compose and no
 *   unsynced local text) takes the server's text; otherwise ours wins and is
 *   written over the server's on the next sync.
 * Nothing syncs when the user turned drafts synchronisation off.
 */
import { ApiError } from "../api/errors.js";
import type { ApiClient } from "../api/http.js";
import { createDrafts, deleteDraft, editDraft, getDrafts, type DraftInput } from "../api/routes/drafts.js";
import type { Draft } from "../api/schemas/common.js";
import type { ServerEvent } from "../api/schemas/events.js";
import type { RegisterResponse } from "../api/schemas/register.js";
import { dmParticipants } from "../model/narrow.js";
import { Debouncer, type TimerHandle } from "./clock.js";
import { draftKey, type DraftJournal, type JournalEntry } from "./draft-journal.js";
import type { SendTarget } from "./outbox-file.js";
import type { UpdateMachine } from "./update-machine.js";

export interface DraftsApi {
  createDrafts(client: ApiClient, drafts: DraftInput[]): Promise<{ ids: number[] }>;
  editDraft(client: ApiClient, id: number, draft: DraftInput): Promise<unknown>;
  deleteDraft(client: ApiClient, id: number): Promise<unknown>;
  getDrafts(client: ApiClient): Promise<{ drafts: Draft[] }>;
}

export interface DraftSyncOptions {
  /** Quiet time before local changes go to the server. Default 2 s. */
  debounceMs?: number;
  /** Wait after a failed sync before trying again. Default 5 s. */
  retryMs?: number;
  api?: Partial<DraftsApi>;
}

const isDirty = (e: JournalEntry) => e.text !== (e.syncedText ?? "");

export class DraftSync {
  private readonly api: DraftsApi;
  private readonly dirty = new Set<string>();
  private readonly uncertainCreates = new Set<string>();
  private readonly debounce: Debouncer;
  private readonly unsubscribe: Array<() => void> = [];
  private editing: string | undefined;
  private enabled = true;
  private running: Promise<void> | undefined;
  private retryTimer: TimerHandle | undefined;
  private disposed = false;

  constructor(
    private readonly machine: UpdateMachine,
    readonly journal: DraftJournal,
    private readonly opts: DraftSyncOptions = {},
  ) {
    this.api = { createDrafts, editDraft, deleteDraft, getDrafts, ...opts.api };
    this.debounce = new Debouncer(machine.clock, opts.debounceMs ?? 2000, () => this.sync(), (opts.debounceMs ?? 2000) * 5);
    for (const e of journal.entriesForSync()) if (isDirty(e)) this.dirty.add(e.key);
    this.unsubscribe.push(
      journal.onChange((key, origin) => {
        if (origin !== "local") return;
        this.dirty.add(key);
        this.debounce.trigger();
      }),
      machine.onStore((store, info) => this.reconcile(info.register, store.selfId)),
      machine.onEvents((events, store) => this.onEvents(events, store.selfId)),
      machine.onState((s) => {
        if (s.kind === "live" && this.dirty.size) this.debounce.trigger();
      }),
    );
    if (machine.lastRegister && machine.store) this.reconcile(machine.lastRegister, machine.store.selfId);
  }

  /** The conversation open in the compose box (its text is never replaced by another client's). */
  setEditing(key: string | undefined): void {
    const was = this.editing;
    this.editing = key;
    // Leaving a conversation is a good moment to save it on the server.
    if (was !== undefined && was !== key && this.dirty.has(was)) this.debounce.trigger();
  }

  /** Syncs pending changes now (on exit). */
  async flush(): Promise<void> {
    this.debounce.cancel();
    await this.running;
    await this.runSync();
  }

  /**
   * Deletes a server draft this client does not hold in its journal (another
   * client's, or one left while synchronisation was off). One already gone
   * is what was wanted. The store follows through the server's event.
   */
  async deleteServerDraft(draftId: number): Promise<void> {
    const local = this.journal.entriesForSync().find((e) => e.serverId === draftId);
    if (local) {
      this.journal.clear(local.key);
      await this.flush();
      return;
    }
    await this.api.deleteDraft(this.machine.client, draftId).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.status < 500 && !err.isRateLimit)) throw err;
    });
  }

  dispose(): void {
    this.disposed = true;
    this.debounce.cancel();
    this.retryTimer?.cancel();
    for (const u of this.unsubscribe) u();
  }

  // --- from the server -------------------------------------------------------

  private keyOf(d: Draft, selfId: number): { key: string; target: SendTarget } | undefined {
    let target: SendTarget;
    if (d.type === "stream" && d.to[0] !== undefined) target = { type: "stream", channelId: d.to[0], topic: d.topic };
    else if (d.type === "private") target = { type: "direct", userIds: dmParticipants(d.to, selfId) };
    else return undefined; // unaddressed drafts have no conversation here
    return { key: draftKey(target), target };
  }

  private takeRemote(d: Draft, selfId: number): void {
    if (d.id === undefined) return;
    const k = this.keyOf(d, selfId);
    if (!k) return;
    const local = this.journal.entry(k.key);
    const info = { serverId: d.id, serverTimestamp: d.timestamp };
    if (!local || (local.text === "" && local.serverId === undefined)) {
      this.journal.applyRemote(k.key, k.target, d.content, info);
      return;
    }
    if (local.serverId !== undefined && local.serverId !== d.id) return; // another draft of the same conversation: keep ours
    if (local.text === d.content) {
      this.journal.noteSynced(k.key, { ...info, syncedText: d.content });
    } else if (k.key === this.editing || isDirty(local)) {
      // Ours wins: the server now holds the other text, which ours overwrites next.
      this.journal.noteSynced(k.key, { ...info, syncedText: d.content });
      this.dirty.add(k.key);
      this.debounce.trigger();
    } else {
      this.journal.applyRemote(k.key, k.target, d.content, info);
    }
  }

  private dropRemote(draftId: number): void {
    const local = this.journal.entriesForSync().find((e) => e.serverId === draftId);
    if (!local) return;
    if (local.key === this.editing || isDirty(local)) {
      this.journal.noteSynced(local.key, { serverId: undefined, syncedText: undefined });
      this.dirty.add(local.key);
      this.debounce.trigger();
    } else {
      this.journal.applyRemote(local.key, undefined, "", { serverId: undefined });
    }
  }

  private reconcile(reg: Pick<RegisterResponse, "user_settings" | "drafts">, selfId: number): void {
    const settings = reg.user_settings as { enable_drafts_synchronization?: unknown } | undefined;
    this.enabled = settings?.enable_drafts_synchronization !== false;
    if (!this.enabled || !reg.drafts) return;
    const ids = new Set<number>();
    for (const d of reg.drafts) {
      if (d.id !== undefined) ids.add(d.id);
      this.takeRemote(d, selfId);
    }
    for (const e of this.journal.entriesForSync()) {
      if (e.serverId !== undefined && !ids.has(e.serverId)) this.dropRemote(e.serverId);
    }
    if (this.dirty.size) this.debounce.trigger();
  }

  private onEvents(events: ServerEvent[], selfId: number): void {
    for (const e of events) {
      if (e.type === "user_settings" && (e as { property?: string }).property === "enable_drafts_synchronization") {
        this.enabled = (e as { value?: unknown }).value !== false;
      }
      if (e.type !== "drafts" || !this.enabled) continue;
      if (e.op === "add") for (const d of e.drafts) this.takeRemote(d, selfId);
      else if (e.op === "update") this.takeRemote(e.draft, selfId);
      else if (e.op === "remove") this.dropRemote(e.draft_id);
    }
  }

  // --- to the server ---------------------------------------------------------

  private sync(): void {
    void this.runSync();
  }

  private async runSync(): Promise<void> {
    if (this.running) {
      await this.running;
      if (!this.dirty.size) return;
    }
    this.running = this.syncDirty().finally(() => (this.running = undefined));
    await this.running;
  }

  private async syncDirty(): Promise<void> {
    if (this.disposed || !this.enabled || this.machine.state.kind !== "live" || !this.machine.store) return;
    const selfId = this.machine.store.selfId;
    let failed = false;
    for (const key of [...this.dirty]) {
      this.dirty.delete(key);
      try {
        await this.syncOne(key, selfId);
      } catch {
        this.dirty.add(key);
        failed = true;
      }
    }
    if (failed && !this.disposed) {
      this.retryTimer?.cancel();
      this.retryTimer = this.machine.clock.setTimeout(() => this.sync(), this.opts.retryMs ?? 5000);
    }
  }

  private async syncOne(key: string, selfId: number): Promise<void> {
    const entry = this.journal.entry(key);
    const target = this.journal.targetOf(key);
    if (!entry || !target || !isDirty(entry)) return;
    const text = entry.text;
    const draft: DraftInput =
      target.type === "stream"
        ? { type: "stream", to: [target.channelId], topic: target.topic, content: text }
        : { type: "private", to: target.userIds, content: text };
    const client = this.machine.client;
    const now = Math.floor(this.machine.clock.now() / 1000);
    if (text === "") {
      if (entry.serverId !== undefined) {
        await this.api.deleteDraft(client, entry.serverId).catch((err: unknown) => {
          if (!(err instanceof ApiError && err.status < 500)) throw err; // already gone: fine
        });
      }
      this.journal.noteSynced(key, { serverId: undefined, syncedText: "" });
      return;
    }
    if (entry.serverId !== undefined) {
      try {
        await this.api.editDraft(client, entry.serverId, draft);
        this.journal.noteSynced(key, { syncedText: text, serverTimestamp: now });
        return;
      } catch (err) {
        if (!(err instanceof ApiError && err.status < 500)) throw err;
        // The draft is gone on the server (sent or deleted elsewhere): create it anew.
      }
    }
    if (this.uncertainCreates.has(key)) {
      const { drafts } = await this.api.getDrafts(client);
      const mine = drafts.find((d) => d.id !== undefined && this.keyOf(d, selfId)?.key === key);
      if (mine?.id !== undefined) {
        this.uncertainCreates.delete(key);
        this.journal.noteSynced(key, { serverId: mine.id, syncedText: mine.content });
        if (mine.content !== text) {
          await this.api.editDraft(client, mine.id, draft);
          this.journal.noteSynced(key, { syncedText: text, serverTimestamp: now });
        }
        return;
      }
    }
    try {
      const res = await this.api.createDrafts(client, [{ ...draft, timestamp: now }]);
      this.uncertainCreates.delete(key);
      const id = res.ids[0];
      if (id !== undefined) this.journal.noteSynced(key, { serverId: id, syncedText: text, serverTimestamp: now });
    } catch (err) {
      // Refused (a channel we cannot post to…): keep it locally, try again after the next change.
      if (err instanceof ApiError && err.status < 500 && !err.isRateLimit) return;
      if (!(err instanceof ApiError)) this.uncertainCreates.add(key);
      throw err;
    }
  }
}
