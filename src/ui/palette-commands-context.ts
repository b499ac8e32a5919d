/**
 * What the palette's entries share: the entry type, the channel and topic
 * they act on, who may do what (from the model's roles and group data),
 * and option lists for the forms' pickers.
 */
import type { GroupSettingValue, Subscription } from "../api/schemas/common.js";
import type { Store } from "../model/store.js";
import type { ActionContext } from "./app-context.js";
import { openForm, type Option } from "./popups/Form.js";

export interface PaletteCommand {
  id: string;
  title: string;
  /** What it applies to or a short note ("#engineering", "administrators"). */
  detail?: string;
  run: (ctx: ActionContext) => void;
}

/**
 * The channel and topic the palette's entries act on: the list view's row under the cursor;
 * else the open narrow's, else the selected message's, else the sidebar row's.
 */
export interface PaletteTarget {
  channelId?: number;
  topic?: string;
}

export function paletteTarget(ctx: ActionContext): PaletteTarget {
  // In a list view (Inbox, Followed topics) with its cursor in hand: the row under the cursor.
  if (ctx.ui.view.kind !== "narrow" && ctx.ui.focus !== "sidebar") return { ...ctx.listTarget() };
  const n = ctx.narrow;
  if (n?.kind === "topic") return { channelId: n.channelId, topic: n.topic };
  const m = ctx.selected;
  if (m?.type === "stream" && m.stream_id !== undefined && n?.kind !== "channel") return { channelId: m.stream_id, topic: m.subject };
  if (n?.kind === "channel") return { channelId: n.channelId, topic: m?.type === "stream" && m.stream_id === n.channelId ? m.subject : undefined };
  const row = ctx.sidebarRows[ctx.ui.sidebar.cursor];
  if (row?.kind === "topic" && row.narrow.kind === "topic") return { channelId: row.narrow.channelId, topic: row.narrow.topic };
  if (row?.kind === "channel" && row.narrow.kind === "channel") return { channelId: row.narrow.channelId };
  return {};
}

/** Owner or administrator of the organization. */
export function isOrgAdmin(store: Store): boolean {
  const me = store.users.get(store.selfId);
  if (!me) return false;
  return me.is_owner === true || me.is_admin || (me.role !== undefined && me.role <= 200);
}

/** Whether the user is in a group-setting value; undefined when the model cannot tell. */
export function inGroupSetting(store: Store, value: unknown): boolean | undefined {
  if (typeof value === "number") return store.users.size === 0 ? undefined : store.people.groupMembers(value).has(store.selfId);
  if (value && typeof value === "object" && "direct_members" in value) {
    const v = value as { direct_members: number[]; direct_subgroups?: number[] };
    if (v.direct_members.includes(store.selfId)) return true;
    return (v.direct_subgroups ?? []).some((g) => store.people.groupMembers(g).has(store.selfId));
  }
  return undefined;
}

/** A channel's record, subscribed or not. */
export function channelRecord(store: Store, channelId: number): (Subscription & Record<string, unknown>) | undefined {
  return (store.channels.get(channelId) ?? store.channel(channelId)) as (Subscription & Record<string, unknown>) | undefined;
}

/** Organization administrators and the channel's administrators (can_administer_channel_group); true when unknown. */
export function canAdministerChannel(store: Store, channelId: number): boolean {
  if (isOrgAdmin(store)) return true;
  const c = channelRecord(store, channelId);
  return inGroupSetting(store, c?.["can_administer_channel_group"]) ?? true;
}

export function channelLabel(store: Store, channelId: number): string {
  return `#${store.channelName(channelId) ?? channelId}`;
}

export function topicLabel(store: Store, channelId: number, topic: string): string {
  return `${channelLabel(store, channelId)} > ${store.topicDisplayName(topic)}`;
}

export function channelOptions(store: Store, which: (channelId: number) => boolean = () => true): Option[] {
  const all = new Map<number, string>();
  for (const c of store.channels.values()) all.set(c.stream_id, c.name);
  for (const c of store.channelsModel.unsubscribed.values()) all.set(c.stream_id, c.name);
  for (const c of store.channelsModel.neverSubscribed.values()) all.set(c.stream_id, c.name);
  return [...all]
    .filter(([id]) => which(id))
    .sort((a, b) => a[1].localeCompare(b[1]))
    .map(([id, name]) => ({ value: String(id), label: `#${name}` }));
}

export function userOptions(store: Store, o: { includeSelf?: boolean; bots?: boolean } = {}): Option[] {
  return [...store.users.values()]
    .filter((u) => u.is_active && (o.bots || !u.is_bot) && (o.includeSelf || u.user_id !== store.selfId))
    .sort((a, b) => a.full_name.localeCompare(b.full_name))
    .map((u) => ({ value: String(u.user_id), label: u.full_name, detail: u.email }));
}

/** Groups for a permission: system groups by their role names, then user groups. */
export function groupOptions(store: Store): Option[] {
  const groups = [...store.people.groups.values()].filter((g) => !g.deactivated);
  const system = groups.filter((g) => g.is_system_group).sort((a, b) => a.id - b.id);
  const user = groups.filter((g) => !g.is_system_group).sort((a, b) => a.name.localeCompare(b.name));
  return [...system, ...user].map((g) => ({ value: String(g.id), label: groupName(g.name), detail: g.is_system_group ? "role" : "group" }));
}

export function groupName(name: string): string {
  const roles: Record<string, string> = {
    "role:nobody": "Nobody",
    "role:owners": "Owners",
    "role:administrators": "Administrators",
    "role:moderators": "Moderators",
    "role:fullmembers": "Full members",
    "role:members": "Members",
    "role:everyone": "Everyone (guests too)",
    "role:internet": "Everyone on the internet",
  };
  return roles[name] ?? name;
}

/** A group-setting value in words ("Administrators", "Maya Okafor, Designers"). */
export function describeGroupSetting(store: Store, value: GroupSettingValue | undefined): string {
  if (value === undefined) return "unknown";
  if (typeof value === "number") return groupName(store.people.groups.get(value)?.name ?? `group ${value}`);
  const names = [
    ...value.direct_members.map((id) => store.userName(id)),
    ...value.direct_subgroups.map((id) => groupName(store.people.groups.get(id)?.name ?? `group ${id}`)),
  ];
  return names.length ? names.join(", ") : "nobody";
}

/**
 * Runs `then` with the target channel; without one (nothing open or
 * selected), asks for it first among `which` channels.
 */
export function withChannel(ctx: ActionContext, title: string, which: (channelId: number) => boolean, then: (channelId: number) => void): void {
  const id = paletteTarget(ctx).channelId;
  if (id !== undefined) return then(id);
  openForm(ctx, {
    title,
    fields: [{ kind: "pick", name: "channel", label: "Channel", options: channelOptions(ctx.store, which) }],
    onSubmit: (v) => then(Number(v["channel"])),
  });
}

/**
 * A form check for a length limit the organization sets (from register): `required` also
 * refuses an empty value. Counts characters (code points), as the server does.
 */
export function withinLimit(what: string, max: number, required = false): (v: string) => string | undefined {
  return (v) => {
    const n = [...v.trim()].length;
    if (required && n === 0) return `${what} cannot be empty`;
    return n > max ? `${what} is longer than the organization's limit of ${max} characters (this is ${n})` : undefined;
  };
}
