/**
 * People: every user the client knows (active, deactivated, bots, cross-realm
 * bots), user groups with their members and subgroups, and user statuses.
 */
import type { User, UserGroup, UserStatus } from "../api/schemas/common.js";
import type { EventOfType, RealmUserEvent } from "../api/schemas/events.js";
import type { LazyRecords } from "../api/schemas/lazy-records.js";
import type { RegisterResponse } from "../api/schemas/register.js";
import { ChangeJournal } from "./change-journal.js";
import { LazyMap } from "./lazy-map.js";
import { compactUser, inUserForm } from "../api/schemas/user-record.js";

/** What stands for a user's name while the user list is still coming. */
export const USER_LOADING = "(loading)";

const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export interface StatusInfo {
  text: string;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  away: boolean;
}

export class Users {
  /** The register's users arrive unchecked: each is checked when first asked for (LazyMap). */
  readonly byId: LazyMap<User>;

  constructor(source?: LazyRecords<User>) {
    this.byId = new LazyMap(source, inUserForm);
  }
  readonly groups = new Map<number, UserGroup>();
  /** Users with a non-empty status. */
  readonly statuses = new Map<number, StatusInfo>();
  /** Ids of users added or changed by events, for indexes kept beside the store (the jump finder). */
  readonly changes = new ChangeJournal<number>();
  /** email (API and real) → id, built when first asked and dropped when users change. */
  private emailIndex: Map<string, number> | undefined;
  /**
   * Whether every user is known. A start asks the register for no users (they are four fifths
   * of a big organization's answer) and fetches them once the first screen is drawn: until then
   * only the user themself, and on a start from the local cache the users it kept, are known.
   */
  complete = true;
  /** Changes to users that arrived while the list was being fetched: applied again over it. */
  private held: RealmUserEvent[] = [];

  static fromRegister(reg: RegisterResponse, statuses: Record<string, UserStatus>): Users {
    const u = new Users(reg.realm_users);
    for (const x of reg.realm_non_active_users) u.byId.set(x.user_id, compactUser({ ...x, is_active: false }));
    for (const x of reg.cross_realm_bots) u.byId.set(x.user_id, compactUser(x));
    for (const g of reg.realm_user_groups ?? []) u.groups.set(g.id, g);
    for (const [id, s] of Object.entries(statuses)) u.setStatus(Number(id), s);
    return u;
  }

  idByEmail(email: string): number | undefined {
    if (!this.emailIndex) {
      this.emailIndex = new Map();
      for (const u of this.byId.values()) {
        this.emailIndex.set(u.email, u.user_id);
        if (u.delivery_email) this.emailIndex.set(u.delivery_email, u.user_id);
      }
    }
    return this.emailIndex.get(email);
  }

  /**
   * The whole list arrived (fetched after the register): it replaces what was known, and the
   * changes that arrived since the register go over it again. Each change sets fields to what
   * they became, so applying one that the list already reflects leaves the list as it is.
   */
  fill(source: LazyRecords<User>): void {
    this.byId.replaceSource(source);
    this.emailIndex = undefined;
    this.complete = true;
    const held = this.held;
    this.held = [];
    for (const e of held) this.applyRealmUser(e);
    // Every user may be new to an index kept beside the store: its readers rebuild.
    this.changes.reset();
  }

  applyRealmUser(e: RealmUserEvent): boolean {
    if (!this.complete) this.held.push(e);
    const id = e.person.user_id;
    this.changes.note(id);
    if (e.op === "add" || "new_email" in e.person || "delivery_email" in e.person || "email" in e.person) this.emailIndex = undefined;
    if (e.op === "add") {
      this.byId.set(id, compactUser(e.person));
      return true;
    }
    const u = this.byId.get(id);
    if (!u) return false;
    if (e.op === "remove") {
      // The user became inaccessible (older servers: was deactivated). Names stay resolvable.
      u.is_active = false;
      return true;
    }
    for (const [k, v] of Object.entries(e.person)) {
      if (UNSAFE_KEYS.has(k) || k === "user_id") continue;
      if (k === "new_email" && typeof v === "string") u.email = v;
      else if (k === "custom_profile_field") applyProfileField(u, v);
      else (u as Record<string, unknown>)[k] = v;
    }
    if (e.person.role !== undefined) {
      u.is_owner = e.person.role === 100;
      u.is_admin = e.person.role <= 200;
      u.is_guest = e.person.role === 600;
    }
    return true;
  }

  applyGroup(e: EventOfType<"user_group">): boolean {
    switch (e.op) {
      case "add":
        this.groups.set(e.group.id, e.group);
        return true;
      case "remove":
        return this.groups.delete(e.group_id);
      case "update": {
        const g = this.groups.get(e.group_id);
        if (!g) return false;
        for (const [k, v] of Object.entries(e.data)) if (!UNSAFE_KEYS.has(k) && v !== undefined) (g as Record<string, unknown>)[k] = v;
        return true;
      }
      case "add_members":
      case "remove_members": {
        const g = this.groups.get(e.group_id);
        if (!g) return false;
        g.members = edit(g.members, e.user_ids, e.op === "add_members");
        return true;
      }
      case "add_subgroups":
      case "remove_subgroups": {
        const g = this.groups.get(e.group_id);
        if (!g) return false;
        g.direct_subgroup_ids = edit(g.direct_subgroup_ids, e.direct_subgroup_ids, e.op === "add_subgroups");
        return true;
      }
    }
  }

  /** Every member of a group, through its subgroups (cycles are tolerated). */
  groupMembers(groupId: number): Set<number> {
    const out = new Set<number>();
    const seen = new Set<number>();
    const stack = [groupId];
    while (stack.length) {
      const id = stack.pop() as number;
      if (seen.has(id)) continue;
      seen.add(id);
      const g = this.groups.get(id);
      if (!g) continue;
      for (const m of g.members) out.add(m);
      for (const s of g.direct_subgroup_ids) stack.push(s);
    }
    return out;
  }

  /** Only the fields that came change; empty text and emoji clear them. */
  setStatus(userId: number, s: Partial<UserStatus>): boolean {
    const cur = this.statuses.get(userId) ?? { text: "", emojiName: "", emojiCode: "", reactionType: "", away: false };
    if (s.status_text !== undefined) cur.text = s.status_text;
    if (s.emoji_name !== undefined) {
      cur.emojiName = s.emoji_name;
      cur.emojiCode = s.emoji_code ?? "";
      cur.reactionType = s.reaction_type === "zulip_extra_emoji" ? "svc_extra_emoji" : (s.reaction_type ?? "");
    }
    if (s.away !== undefined) cur.away = s.away;
    if (!cur.text && !cur.emojiName && !cur.away) this.statuses.delete(userId);
    else this.statuses.set(userId, cur);
    return true;
  }
}

function edit(list: number[], ids: number[], add: boolean): number[] {
  const set = new Set(list);
  for (const id of ids) {
    if (add) set.add(id);
    else set.delete(id);
  }
  return [...set];
}

function applyProfileField(u: User, raw: unknown): void {
  if (!raw || typeof raw !== "object") return;
  const f = raw as { id?: unknown; value?: unknown; rendered_value?: unknown };
  if (typeof f.id !== "number") return;
  const data = (u.profile_data ??= {});
  if (f.value === null || f.value === undefined || f.value === "") delete data[String(f.id)];
  else data[String(f.id)] = { value: String(f.value), ...(typeof f.rendered_value === "string" ? { rendered_value: f.rendered_value } : {}) };
}
