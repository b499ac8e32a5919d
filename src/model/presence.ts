/**
 * Presence: when each user was last active and last idle (the modern format;
 * the legacy per-client format is converted on the way in), and the
 * thresholds the server announced for calling someone active, idle or offline.
 */
import type { LegacyPresence, ModernPresence } from "../api/schemas/common.js";
import type { EventOfType } from "../api/schemas/events.js";

export type PresenceStatus = "active" | "idle" | "offline";

export interface PresenceTimes {
  active: number;
  idle: number;
}

/** Fallbacks documented for servers that do not send the thresholds. */
export const DEFAULT_OFFLINE_THRESHOLD_SECS = 140;
export const DEFAULT_PING_INTERVAL_SECS = 60;

/** Legacy entry (per client plus `aggregated`) → last active / last seen at all. */
export function fromLegacy(p: LegacyPresence): PresenceTimes {
  let active = 0;
  let idle = 0;
  for (const [client, info] of Object.entries(p)) {
    if (client === "aggregated" && Object.keys(p).length > 1) continue;
    if (info.status === "active" && info.timestamp > active) active = info.timestamp;
    if (info.timestamp > idle) idle = info.timestamp;
  }
  return { active, idle };
}

function isModern(p: unknown): p is ModernPresence {
  return !!p && typeof p === "object" && typeof (p as ModernPresence).active_timestamp === "number";
}

export class Presence {
  readonly byUser = new Map<number, PresenceTimes>();
  lastUpdateId = -1;

  constructor(
    readonly offlineThresholdSecs = DEFAULT_OFFLINE_THRESHOLD_SECS,
    readonly pingIntervalSecs = DEFAULT_PING_INTERVAL_SECS,
  ) {}

  /**
   * Takes a presences object as the register and `POST /users/me/presence`
   * send it: keyed by user id (modern) or by email (legacy, `emailToId` maps).
   */
  merge(presences: Record<string, unknown> | undefined, emailToId: (email: string) => number | undefined): boolean {
    let changed = false;
    for (const [key, p] of Object.entries(presences ?? {})) {
      const id = /^\d+$/.test(key) ? Number(key) : emailToId(key);
      if (id === undefined) continue;
      if (isModern(p)) changed = this.update(id, { active: p.active_timestamp, idle: p.idle_timestamp }) || changed;
      else if (p && typeof p === "object") changed = this.update(id, fromLegacy(p as LegacyPresence)) || changed;
    }
    return changed;
  }

  /** Times only move forward. Returns whether anything moved. */
  update(userId: number, t: PresenceTimes): boolean {
    const cur = this.byUser.get(userId);
    if (!cur) {
      this.byUser.set(userId, { ...t });
      return true;
    }
    const changed = t.active > cur.active || t.idle > cur.idle;
    if (t.active > cur.active) cur.active = t.active;
    if (t.idle > cur.idle) cur.idle = t.idle;
    return changed;
  }

  /** Applies a presence event; returns whether anything moved. */
  apply(e: EventOfType<"presence">, emailToId: (email: string) => number | undefined): boolean {
    if (e.presences) return this.merge(e.presences, emailToId);
    const id = e.user_id ?? (e.email !== undefined ? emailToId(e.email) : undefined);
    if (id === undefined || !e.presence) return false;
    return this.update(id, fromLegacy(e.presence));
  }

  /** active: seen active within the threshold; idle: seen (idle) within it; else offline. `now` in ms. */
  status(userId: number, nowMs: number): PresenceStatus {
    const t = this.byUser.get(userId);
    if (!t) return "offline";
    const now = nowMs / 1000;
    if (now - t.active < this.offlineThresholdSecs) return "active";
    if (now - Math.max(t.idle, t.active) < this.offlineThresholdSecs) return "idle";
    return "offline";
  }
}
