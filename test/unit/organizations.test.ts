/**
 * The organizations' summaries and sections, as plain data: what a row says
 * of a connection that is not live, the sections around the open account's
 * rows (none for one account alone), cycling, and a notification's title
 * naming its organization.
 */
import { describe, expect, it } from "vitest";
import { cycleKey, troubleOf, withOrganizations, ORG_SECTION, type OrgSummary } from "../../src/ui/organizations.js";
import { noteSequence } from "../../src/ui/notifications.js";
import type { SidebarRow } from "../../src/ui/sidebar-rows.js";

const org = (name: string, o: Partial<OrgSummary> = {}): OrgSummary => ({ key: `k-${name}`, name, realm: undefined, unread: 0, active: false, trouble: undefined, ...o });
const ROWS: SidebarRow[] = [{ kind: "header", label: "DIRECT MESSAGES" }, { kind: "dm", label: "Ben", unread: 1, narrow: { kind: "dm", userIds: [2] } }];

describe("organizations", () => {
  it("a row says offline while reconnecting, a refused key in short, and nothing once live or drawn from the cache", () => {
    expect(troubleOf({ kind: "live" }, true)).toBeUndefined();
    expect(troubleOf({ kind: "connecting" }, false)).toBe("connecting…");
    expect(troubleOf({ kind: "connecting" }, true)).toBeUndefined();
    expect(troubleOf({ kind: "reconnecting", attempt: 3, error: "ECONNREFUSED" }, true)).toBe("offline");
    expect(troubleOf({ kind: "failed", error: "The server refused our credentials: Invalid API key (401)" }, false)).toBe("key refused (Invalid API key (401))");
    expect(troubleOf({ kind: "failed", error: "Realm deactivated" }, false)).toBe("Realm deactivated");
  });

  it("puts the open account's rows under its section, in the configured order; folded, only the sections remain; one account has none", () => {
    const orgs = [org("a"), org("b", { active: true }), org("c")];
    const rows = withOrganizations(ROWS, orgs);
    expect(rows.map((r) => (r.kind === "org" ? `${r.label}${r.open ? "▾" : "▸"}` : r.kind))).toEqual(["a▸", "b▾", "header", "dm", "c▸"]);
    expect(withOrganizations(ROWS, orgs, [ORG_SECTION]).map((r) => r.kind)).toEqual(["org", "org", "org"]);
    expect(withOrganizations(ROWS, [org("a", { active: true })])).toBe(ROWS);
    expect(withOrganizations(ROWS, undefined)).toBe(ROWS);
  });

  it("cycles round from the active one", () => {
    expect(cycleKey([org("a"), org("b"), org("c", { active: true })], 1)).toBe("k-a");
    expect(cycleKey([org("a", { active: true }), org("b")], -1)).toBe("k-b");
    expect(cycleKey([org("a", { active: true })], 1)).toBeUndefined();
  });

  it("a notification names its organization in the desktop notification's title", () => {
    const note = { messageId: 1, title: "Ben Carter", body: "hello", audible: true, desktop: true };
    const seq = noteSequence(note, { bell: true, desktop: true }, "oss");
    expect(seq).toContain("\x07");
    expect(seq).toContain("\x1b]9;[oss] Ben Carter: hello");
    expect(seq).toContain("\x1b]777;notify;[oss] Ben Carter;hello");
    expect(noteSequence(note, { bell: false, desktop: true })).toContain("\x1b]9;Ben Carter: hello");
  });
});
