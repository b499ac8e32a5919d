/**
 * Several organizations in the sidebar, on a fake session: each a section
 * with its unread total, the one on screen open with its own rows under it,
 * the others folded, one whose key was refused saying so on its row; Enter
 * on the open one's row folds it, on another's puts that one on screen; O
 * goes to the next, a number key to the one of that number.
 */
import { act, type ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Sidebar } from "../../src/ui/components/Sidebar.js";
import { useScreenState } from "../../src/ui/contexts.js";
import { sidebarRowsOf, type OrgSummary } from "../../src/ui/organizations.js";
import { sidebarRowKey } from "../../src/ui/sidebar-rows.js";
import { INITIAL_UI } from "../../src/ui/ui-state.js";
import * as eg from "../fixtures/example.js";
import { FeatureKeys, fakeSession, renderOnFake, type FakeSession } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

const ORGS: OrgSummary[] = [
  { key: "k-acme", name: "acme", realm: "Acme Corp", unread: 3, active: true, trouble: undefined },
  { key: "k-oss", name: "oss", realm: "Open Source", unread: 12, active: false, trouble: undefined },
  { key: "k-conf", name: "conf", realm: undefined, unread: 0, active: false, trouble: "key refused (401)" },
];

function SidebarOnFake({ orgs }: { orgs: OrgSummary[] }) {
  const { store, ui } = useScreenState();
  const rows = sidebarRowsOf(store, ui.sidebar, orgs);
  return (
    <>
      <Sidebar rows={rows} cursor={ui.sidebar.cursor} width={34} height={24} focused rowKey={sidebarRowKey} filter={ui.sidebar.filter} />
      <FeatureKeys />
    </>
  );
}

async function showOrgs() {
  const general = eg.subscription({ stream_id: 10, name: "general" });
  const fake = fakeSession({ register: { subscriptions: [general] }, organizations: ORGS, ui: { focus: "sidebar", sidebar: { ...INITIAL_UI.sidebar, cursor: 0 } } });
  const screen = await renderOnFake(fake, <SidebarOnFake orgs={ORGS} />);
  unmount = screen.unmount;
  return { fake, screen, shown: () => fake.recorded.filter((r) => r.name === "showOrganization").map((r) => r.args[0]) };
}

describe("organizations in the sidebar", () => {
  it("shows each organization as a section with its unread total; the open one has its rows under it, a refused key is said on its row", async () => {
    const { screen } = await showOrgs();
    const lines = screen.frame().split("\n");
    const at = (name: string) => lines.findIndex((l) => new RegExp(`[▾▸] ${name}\\b`).test(l));
    expect(lines[at("acme")]).toMatch(/▾ acme\s+3/);
    expect(lines[at("oss")]).toMatch(/▸ oss\s+12/);
    expect(lines[at("conf")]).toMatch(/▸ conf ✖ key refused/);
    // The open one's own rows (views, channels) are between its row and the next organization's.
    const general = lines.findIndex((l) => l.includes("#general"));
    expect(general).toBeGreaterThan(at("acme"));
    expect(general).toBeLessThan(at("oss"));
    expect(at("oss")).toBeLessThan(at("conf"));
  });

  it("Enter on the open organization folds it; Enter on another puts that one on screen", async () => {
    const { screen, shown } = await showOrgs();
    await screen.press("\r"); // the cursor is on acme's row
    await screen.until(() => !screen.frame().includes("#general"), "acme's rows folded");
    expect(screen.frame()).toMatch(/▸ acme\s+3/);
    await screen.press("j", "\r"); // oss
    expect(shown()).toEqual(["k-oss"]);
  });

  it("O goes to the next organization, a number key to the one of that number", async () => {
    const { screen, shown, fake } = await showOrgs();
    await screen.press("O");
    await screen.press("3");
    await screen.press("9");
    expect(shown()).toEqual(["k-oss", "k-conf"]);
    const notes = fake.recorded.filter((r) => r.name === "notify").map((r) => r.args[0]);
    expect(notes).toEqual(["There is no organization 9 (3 are open)"]);
  });
});

/** The popup a key asked for, rendered on the same fake screen. */
function popupOf(fake: FakeSession): ReactNode {
  const open = fake.recorded.find((r) => r.name === "openPopup");
  if (!open) throw new Error("no popup was opened");
  return (open.args[0] as (close: () => void) => ReactNode)(() => fake.recorded.push({ name: "closed", args: [] }));
}

describe("the combined Inbox", () => {
  it("lists every organization's unread conversations under its row with its total; Enter opens one in its organization", async () => {
    const general = eg.subscription({ stream_id: 10, name: "general" });
    const mine = [eg.streamMessage({ stream: general, subject: "lunch" }), eg.streamMessage({ stream: general, subject: "lunch" })];
    const ossDm = eg.dmMessage({ from: eg.otherUser, to: [eg.selfUser] });
    const ossStore = eg.store({ realm_users: [eg.selfUser, eg.otherUser], unread_msgs: eg.unreadMessages([ossDm]) });
    const fake = fakeSession({ register: { subscriptions: [general], unread_msgs: eg.unreadMessages(mine) }, organizations: ORGS, otherStores: { "k-oss": ossStore } });
    const keys = await renderOnFake(fake, <FeatureKeys />);
    await keys.press("U");
    await keys.unmount();
    const screen = await renderOnFake(fake, popupOf(fake));
    unmount = screen.unmount;
    const lines = screen.frame().split("\n");
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    expect(screen.frame()).toContain("Unread in every organization (3)");
    expect(lines[at(/▾ acme/)]).toMatch(/2\s*│?$/);
    expect(at(/#general > lunch\s+2/)).toBeGreaterThan(at(/▾ acme/));
    expect(at(/▾ oss/)).toBeGreaterThan(at(/#general > lunch/));
    expect(at(/@ Other Person\s+1/)).toBeGreaterThan(at(/▾ oss/));
    expect(lines[at(/▾ conf/)]).toContain("key refused");
    // Down to Other Person's conversation in oss, and open it there.
    for (let i = 0; i < 3; i++) await screen.press("j");
    await screen.press("\r");
    const shown = fake.recorded.filter((r) => r.name === "showOrganization");
    expect(shown.map((r) => r.args)).toEqual([["k-oss", { kind: "dm", userIds: [eg.otherUser.user_id] }]]);
  });
});

describe("n and p across organizations", () => {
  it("with the setting on, p with no unread conversation left here opens the next organization's; off, it says there is none", async () => {
    const ossDm = eg.dmMessage({ from: eg.otherUser, to: [eg.selfUser] });
    const ossStore = eg.store({ realm_users: [eg.selfUser, eg.otherUser], unread_msgs: eg.unreadMessages([ossDm]) });
    const fake = fakeSession({ organizations: ORGS, otherStores: { "k-oss": ossStore } });
    const screen = await renderOnFake(fake, <FeatureKeys />);
    unmount = screen.unmount;
    await screen.press("p");
    expect(fake.recorded.filter((r) => r.name === "notify").map((r) => r.args[0])).toEqual(["No more unread direct messages"]);
    expect(fake.names()).not.toContain("showOrganization");

    fake.ctx.settings = { ...fake.ctx.settings, organizations: { followUnreads: true } };
    await act(async () => fake.ctx.dispatch({ type: "clearNotice" })); // the screen takes the new settings
    await screen.press("p");
    expect(fake.recorded.filter((r) => r.name === "showOrganization").map((r) => r.args)).toEqual([["k-oss", { kind: "dm", userIds: [eg.otherUser.user_id] }]]);
    expect(fake.recorded.filter((r) => r.name === "notify")).toHaveLength(1);
  });
});
