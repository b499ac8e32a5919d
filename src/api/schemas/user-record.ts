/**
 * The form a user takes in the store. A big organization has tens of thousands of users and the
 * checked copy of each is kept for the whole session, so each is rebuilt in one fixed shape (all
 * known fields in one order: every record shares one layout, its fields held inline), with its
 * repeated values shared: the delivery address that equals the address is the same string, and
 * time zones and join dates, which repeat across people, are taken from a bounded table of
 * strings seen before. An empty profile is left out. Fields a newer server adds are kept.
 */
import type { User } from "./common.js";

const KNOWN = new Set([
  "user_id",
  "email",
  "full_name",
  "delivery_email",
  "is_active",
  "is_owner",
  "is_admin",
  "is_guest",
  "is_bot",
  "bot_type",
  "bot_owner_id",
  "role",
  "timezone",
  "avatar_url",
  "avatar_version",
  "date_joined",
  "is_imported_stub",
  "is_deleted",
  "profile_data",
]);

/** Distinct values shared at most; past it, new values are kept as they came. */
export const SHARED_STRINGS_MAX = 4096;
const shared = new Map<string, string>();

/** The string equal to `s` seen before, if any; else `s` (remembered while the table has room). */
export function sharedString(s: string): string;
export function sharedString(s: string | undefined): string | undefined;
export function sharedString(s: string | undefined): string | undefined {
  if (s === undefined) return s;
  const have = shared.get(s);
  if (have !== undefined) return have;
  if (shared.size < SHARED_STRINGS_MAX) shared.set(s, s);
  return s;
}

function isEmpty(o: object | undefined): boolean {
  if (!o) return true;
  for (const _ in o) return false;
  return true;
}

/** The store form's one shape (a class: a record in it is known by `instanceof`), its fields set in one order. */
class UserForm {
  [field: string]: unknown;
  constructor(u: User) {
    const email = u.email;
    this.user_id = u.user_id;
    this.email = email;
    this.full_name = u.full_name;
    this.delivery_email = u.delivery_email === email ? email : u.delivery_email;
    this.is_active = u.is_active;
    this.is_owner = u.is_owner;
    this.is_admin = u.is_admin;
    this.is_guest = u.is_guest;
    this.is_bot = u.is_bot;
    this.bot_type = u.bot_type;
    this.bot_owner_id = u.bot_owner_id;
    this.role = u.role;
    this.timezone = sharedString(u.timezone);
    this.avatar_url = u.avatar_url;
    this.avatar_version = u.avatar_version;
    this.date_joined = sharedString(u.date_joined);
    this.is_imported_stub = u.is_imported_stub;
    this.is_deleted = u.is_deleted;
    this.profile_data = isEmpty(u.profile_data) ? undefined : u.profile_data;
    for (const k in u) if (!KNOWN.has(k)) this[k] = (u as Record<string, unknown>)[k];
  }
}

/** The user in its store form (see above); what it reads as is unchanged. */
export function compactUser(u: User): User {
  return new UserForm(u) as unknown as User;
}

/** A user already in the store form. */
export function inUserForm(u: User): User {
  return u instanceof UserForm ? u : compactUser(u);
}

/**
 * The checked user, kept in the record it was checked from when that is already in the store
 * form (parsed that way): the check's values (defaults filled in) go into it, and its own copy
 * goes, so a user is not made twice.
 */
export function adoptCheckedUser(checked: User, raw: unknown): User {
  if (!(raw instanceof UserForm)) return compactUser(checked);
  const r = raw as Record<string, unknown>;
  const c = checked as Record<string, unknown>;
  for (const k of KNOWN) r[k] = k === "profile_data" && isEmpty(checked.profile_data) ? undefined : c[k];
  return raw as unknown as User;
}

/**
 * A user as parsed from the register's JSON, not yet checked, in the same form: the parsed
 * record goes at once (it never outlives its run of the array), and the check, later, reads
 * the same values. Anything but an object is left as it is, for the check to reject.
 */
export function compactParsedUser(raw: unknown): unknown {
  return raw && typeof raw === "object" && !Array.isArray(raw) ? compactUser(raw as User) : raw;
}
