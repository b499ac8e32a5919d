/**
 * Channels and subscriptions: every channel the user knows of (subscribed,
 * formerly subscribed, never subscribed), the personal settings of the
 * subscribed ones, and the channel folders. Records are ours (parsed from the
 * register response or an event) and are changed in place.
 */
import type { Channel, ChannelFolder, Subscription } from "../api/schemas/common.js";
import type { EventOfType, SubscriptionEvent } from "../api/schemas/events.js";
import type { LazyRecords } from "../api/schemas/lazy-records.js";
import type { RegisterResponse } from "../api/schemas/register.js";
import { ChangeJournal } from "./change-journal.js";
import { LazyMap } from "./lazy-map.js";

/** What the store learns from a channel event, so it can update the other sub-models. */
export interface ChannelChange {
  changed: boolean;
  /** Mute state of a subscribed channel changed (feed membership and counts follow). */
  muteChanged?: number[];
  /** The user's subscription state changed for these channels. */
  subscriptionChanged?: number[];
  deleted?: number[];
}

const NO_CHANGE: ChannelChange = { changed: false };
const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Fills the muted flag from the legacy in_home_view when only that was sent. */
export function normalizeSubscription<T extends Subscription>(s: T): T {
  if (s.is_muted === undefined) s.is_muted = s.in_home_view === undefined ? false : !s.in_home_view;
  if (s.in_home_view === undefined) s.in_home_view = !s.is_muted;
  return s;
}

function setProperty(target: object, property: string, value: unknown): void {
  if (UNSAFE_KEYS.has(property)) return;
  (target as Record<string, unknown>)[property] = value;
}

export class Channels {
  /** Subscribed channels with the user's settings. */
  readonly subscribed = new Map<number, Subscription>();
  /** Channels the user was subscribed to, with the settings they had. */
  readonly unsubscribed = new Map<number, Subscription>();
  /** Channels the user can see but never subscribed to (checked as they are used: see LazyMap). */
  readonly neverSubscribed: LazyMap<Channel>;
  readonly folders = new Map<number, ChannelFolder>();
  /** Ids of channels created, renamed, deleted or (un)subscribed by events, for indexes kept beside the store. */
  readonly changes = new ChangeJournal<number>();

  constructor(neverSubscribed?: LazyRecords<Channel>) {
    this.neverSubscribed = new LazyMap(neverSubscribed);
  }

  static fromRegister(reg: RegisterResponse): Channels {
    const c = new Channels(reg.never_subscribed);
    for (const s of reg.subscriptions) c.subscribed.set(s.stream_id, normalizeSubscription(s));
    for (const s of reg.unsubscribed) if (!c.subscribed.has(s.stream_id)) c.unsubscribed.set(s.stream_id, normalizeSubscription(s));
    for (const id of [...c.subscribed.keys(), ...c.unsubscribed.keys()]) c.neverSubscribed.forget(id);
    for (const f of reg.channel_folders) c.folders.set(f.id, f);
    return c;
  }

  /** Any known channel's record. */
  get(id: number): Channel | Subscription | undefined {
    return this.subscribed.get(id) ?? this.unsubscribed.get(id) ?? this.neverSubscribed.get(id);
  }

  isSubscribed(id: number): boolean {
    return this.subscribed.has(id);
  }

  isMuted(id: number): boolean {
    return this.subscribed.get(id)?.is_muted ?? false;
  }

  name(id: number): string | undefined {
    return this.get(id)?.name;
  }

  /** Folders in display order (`order`, then id). */
  foldersInOrder(): ChannelFolder[] {
    return [...this.folders.values()].sort((a, b) => a.order - b.order || a.id - b.id);
  }

  applySubscription(e: SubscriptionEvent): ChannelChange {
    switch (e.op) {
      case "add": {
        const ids: number[] = [];
        for (const s of e.subscriptions) {
          this.unsubscribed.delete(s.stream_id);
          this.neverSubscribed.delete(s.stream_id);
          this.subscribed.set(s.stream_id, normalizeSubscription(s));
          ids.push(s.stream_id);
          this.changes.note(s.stream_id);
        }
        return { changed: ids.length > 0, subscriptionChanged: ids };
      }
      case "remove": {
        const ids: number[] = [];
        for (const { stream_id } of e.subscriptions) {
          const s = this.subscribed.get(stream_id);
          if (!s) continue;
          this.subscribed.delete(stream_id);
          this.unsubscribed.set(stream_id, s);
          ids.push(stream_id);
          this.changes.note(stream_id);
        }
        return { changed: ids.length > 0, subscriptionChanged: ids };
      }
      case "update": {
        const s = this.subscribed.get(e.stream_id);
        if (!s) return NO_CHANGE;
        const wasMuted = s.is_muted;
        setProperty(s, e.property, e.value);
        if (e.property === "in_home_view") s.is_muted = !e.value;
        if (e.property === "is_muted") s.in_home_view = !e.value;
        return { changed: true, muteChanged: s.is_muted !== wasMuted ? [e.stream_id] : undefined };
      }
      case "peer_add":
      case "peer_remove": {
        let changed = false;
        for (const id of e.stream_ids) {
          const c = this.get(id) as Subscription | undefined;
          if (!c) continue;
          changed = true;
          let delta = e.op === "peer_add" ? e.user_ids.length : -e.user_ids.length;
          if (c.subscribers) {
            const set = new Set(c.subscribers);
            const before = set.size;
            for (const u of e.user_ids) {
              if (e.op === "peer_add") set.add(u);
              else set.delete(u);
            }
            delta = set.size - before;
            c.subscribers = [...set];
          }
          if (c.subscriber_count !== undefined) c.subscriber_count = Math.max(0, c.subscriber_count + delta);
        }
        return changed ? { changed } : NO_CHANGE;
      }
    }
  }

  applyStream(e: EventOfType<"stream">): ChannelChange {
    switch (e.op) {
      case "create": {
        for (const s of e.streams) {
          this.changes.note(s.stream_id);
          const have = this.get(s.stream_id);
          if (have) Object.assign(have, s);
          else this.neverSubscribed.set(s.stream_id, s);
        }
        return { changed: e.streams.length > 0 };
      }
      case "delete": {
        const ids = new Set<number>([...(e.stream_ids ?? []), ...e.streams.map((s) => s.stream_id)]);
        const deleted: number[] = [];
        for (const id of ids) {
          const had = this.subscribed.delete(id) || this.unsubscribed.delete(id) || this.neverSubscribed.delete(id);
          if (had) deleted.push(id);
          this.changes.note(id);
        }
        return { changed: deleted.length > 0, deleted, subscriptionChanged: deleted };
      }
      case "update": {
        const c = this.get(e.stream_id);
        if (!c) return NO_CHANGE;
        setProperty(c, e.property, e.value);
        if (e.property === "name" || e.property === "is_archived") this.changes.note(e.stream_id);
        // Fields that travel beside the one named by `property`.
        if (e.rendered_description !== undefined) (c as Subscription).rendered_description = e.rendered_description;
        if (e.history_public_to_subscribers !== undefined) (c as Subscription).history_public_to_subscribers = e.history_public_to_subscribers;
        if (e.is_web_public !== undefined) c.is_web_public = e.is_web_public;
        if (e.property === "invite_only" && typeof e.value === "boolean") c.invite_only = e.value;
        return { changed: true };
      }
    }
  }

  applyFolder(e: EventOfType<"channel_folder">): ChannelChange {
    switch (e.op) {
      case "add":
        this.folders.set(e.channel_folder.id, e.channel_folder);
        return { changed: true };
      case "update": {
        const f = this.folders.get(e.channel_folder_id);
        if (!f) return NO_CHANGE;
        for (const [k, v] of Object.entries(e.data)) if (v !== undefined) setProperty(f, k, v);
        return { changed: true };
      }
      case "reorder": {
        e.order.forEach((id, i) => {
          const f = this.folders.get(id);
          if (f) f.order = i;
        });
        return { changed: true };
      }
    }
  }
}
