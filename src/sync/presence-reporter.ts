/**
 * The presence reporter: tells the server whether the user is here.
 *
 * `active` while keys are pressed; `idle` once no key came for the idle
 * threshold; a report every ping interval the server announces
 * (`server_presence_ping_interval_seconds`, 60 s before feature level 164),
 * at once on the change from idle to active, and at once when the idle
 * threshold passes. The threshold is the server's
 * `server_presence_offline_threshold_seconds` (140 s for older servers):
 * a user without input for that long would be shown offline anyway.
 *
 * Reports use the modern format (`last_update_id`, starting from the
 * register's `presence_last_update_id`, else -1); the presences returned go
 * to the store's presence sub-model. Nothing is reported when the
 * organization disabled presence.
 */
import type { ApiClient } from "../api/http.js";
import { updatePresence, type UpdatePresenceParams } from "../api/routes/presence.js";
import type { UpdatePresenceResponse } from "../api/schemas/responses-users.js";
import type { TimerHandle } from "./clock.js";
import type { UpdateMachine } from "./update-machine.js";

export type PresenceStatus = "active" | "idle";

export interface PresenceOptions {
  updatePresence?: (client: ApiClient, p: UpdatePresenceParams, signal?: AbortSignal) => Promise<UpdatePresenceResponse>;
  /** Overrides of the server's periods (tests). */
  pingIntervalMs?: number;
  idleAfterMs?: number;
}

export class PresenceReporter {
  private lastKeyAt: number;
  private reported: PresenceStatus | undefined;
  private inputSinceReport = false;
  private lastUpdateId = -1;
  private pingTimer: TimerHandle | undefined;
  private idleTimer: TimerHandle | undefined;
  private inFlight: Promise<void> | undefined;
  private readonly unsubscribe: Array<() => void> = [];
  private disposed = false;
  /** Reports sent, for tests and diagnostics. */
  reports = 0;

  constructor(
    private readonly machine: UpdateMachine,
    private readonly opts: PresenceOptions = {},
  ) {
    this.lastKeyAt = machine.clock.now();
    this.unsubscribe.push(
      machine.onStore((_store, info) => {
        const id = info.register.presence_last_update_id;
        if (typeof id === "number" && id > this.lastUpdateId) this.lastUpdateId = id;
        if (info.reason === "start") void this.report();
      }),
      machine.onState((s) => {
        // Back online after a gap: say at once whether we are here.
        if (s.kind === "live" && this.reported === undefined) void this.report();
      }),
    );
    const reg = machine.lastRegister;
    if (reg?.presence_last_update_id !== undefined) this.lastUpdateId = reg.presence_last_update_id;
    if (machine.store) void this.report();
  }

  get pingIntervalMs(): number {
    return this.opts.pingIntervalMs ?? (this.machine.lastRegister?.server_presence_ping_interval_seconds ?? 60) * 1000;
  }

  get idleAfterMs(): number {
    return this.opts.idleAfterMs ?? (this.machine.lastRegister?.server_presence_offline_threshold_seconds ?? 140) * 1000;
  }

  /** What we would report now. */
  get status(): PresenceStatus {
    return this.machine.clock.now() - this.lastKeyAt < this.idleAfterMs ? "active" : "idle";
  }

  /** Call on every key press (from the keypress bus). Cheap. */
  keyPressed(): void {
    const wasIdle = this.status === "idle";
    this.lastKeyAt = this.machine.clock.now();
    this.inputSinceReport = true;
    this.armIdleTimer();
    if (wasIdle || this.reported === "idle") void this.report();
  }

  dispose(): void {
    this.disposed = true;
    this.pingTimer?.cancel();
    this.idleTimer?.cancel();
    for (const u of this.unsubscribe) u();
  }

  private armIdleTimer(): void {
    this.idleTimer?.cancel();
    this.idleTimer = this.machine.clock.setTimeout(() => {
      this.idleTimer = undefined;
      if (this.reported !== "idle") void this.report();
    }, this.idleAfterMs);
  }

  private schedulePing(): void {
    this.pingTimer?.cancel();
    if (this.disposed) return;
    this.pingTimer = this.machine.clock.setTimeout(() => void this.report(), this.pingIntervalMs);
  }

  /** Sends the current status (one request at a time) and schedules the next ping. */
  private async report(): Promise<void> {
    // A spectator is nobody: there is no presence to report (the server would refuse it).
    if (this.disposed || this.machine.client.spectator) return;
    if (this.inFlight) return this.inFlight;
    this.schedulePing();
    const store = this.machine.store;
    if (this.machine.state.kind !== "live" || !store || store.realm.presenceDisabled) return;
    const status = this.status;
    const newInput = this.inputSinceReport;
    this.inputSinceReport = false;
    this.inFlight = (async () => {
      try {
        this.reports++;
        const res = await (this.opts.updatePresence ?? updatePresence)(this.machine.client, {
          status,
          last_update_id: this.lastUpdateId,
          new_user_input: newInput,
        });
        this.reported = status;
        if (typeof res.presence_last_update_id === "number" && res.presence_last_update_id > this.lastUpdateId) {
          this.lastUpdateId = res.presence_last_update_id;
        }
        if (this.machine.store === store) store.setPresences(res.presences, res.presence_last_update_id);
      } catch {
        this.reported = undefined; // the next ping, or the connection coming back, tries again
        this.inputSinceReport ||= newInput;
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }
}
