/**
 * The keys of form fields, line inputs and the sidebar filter come from the
 * keymap: rebound in the settings, the new key works
 * and the old one no longer does (on a fake session, without a server).
 */
import { afterEach, describe, expect, it } from "vitest";
import { Sidebar } from "../../src/ui/components/Sidebar.js";
import { FEATURES } from "../../src/ui/features/index.js";
import { Keymap } from "../../src/ui/keymap.js";
import { Form, type FormValues } from "../../src/ui/popups/Form.js";
import { PickRecipient } from "../../src/ui/popups/PickRecipient.js";
import { buildSidebarRows, sidebarRowKey } from "../../src/ui/sidebar-rows.js";
import { INITIAL_UI } from "../../src/ui/ui-state.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

function rebound(overrides: Record<string, string[]>): Keymap {
  const { keymap, problems } = Keymap.withOverrides(
    FEATURES.flatMap((f) => f.bindings),
    overrides,
  );
  expect(problems).toEqual([]);
  return keymap;
}

const CTRL_A = "\x01";
const CTRL_F = "\x06";
const CTRL_G = "\x07";
const CTRL_U = "\x15";
const CTRL_X = "\x18";

describe("form fields", () => {
  it("rebound toggle, choice and pick keys change their fields; the default keys no longer do; the hint names the new key", async () => {
    const fake = fakeSession();
    const keymap = rebound({ "formToggle.on": ["+"], "formToggle.flip": ["!"], "formChoice.next": ["C-f"], "formPick.add": ["C-a"] });
    let submitted: FormValues | undefined;
    const spec = {
      title: "Settings of #general",
      fields: [
        { kind: "toggle" as const, name: "muted", label: "Muted", initial: false },
        { kind: "choice" as const, name: "color", label: "Colour", options: ["red", "green", "blue"].map((v) => ({ value: v, label: v })) },
        { kind: "pick" as const, name: "who", label: "People", multi: true, options: ["Ann", "Ben", "Cleo"].map((v) => ({ value: v.toLowerCase(), label: v })) },
      ],
      onSubmit: (v: FormValues) => void (submitted = v),
    };
    const screen = await renderOnFake(fake, <Form spec={spec} keymap={keymap} close={() => {}} />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("Ctrl-a add/remove"), "the form, its hint naming the rebound key");
    await screen.press("y");
    expect(screen.frame()).toContain("[ ] no"); // y no longer turns it on
    await screen.press("+");
    await screen.until(() => screen.frame().includes("[x] yes"), "the toggle on");
    await screen.press("!");
    await screen.until(() => screen.frame().includes("[ ] no"), "the toggle flipped off");
    await screen.press("!");
    await screen.until(() => screen.frame().includes("[x] yes"), "the toggle flipped on");
    await screen.press("\t", " ", "\x1b[C"); // Space and → no longer move the choice
    await screen.until(() => screen.frame().includes("‹ red ›"), "the choice unchanged");
    await screen.press(CTRL_F);
    await screen.until(() => screen.frame().includes("‹ green ›"), "the next choice");
    await screen.press("\t", "b", "e", CTRL_A);
    await screen.until(() => /People.*Ben/.test(screen.frame()), "Ben added");
    await screen.press("\r");
    await screen.until(() => submitted !== undefined, "the form applied");
    expect(submitted).toEqual({ muted: true, color: "green", who: ["ben"] });
  });
});

describe("line inputs", () => {
  it("the people picker's filter erases with the edit scope's keys, rebound ones included", async () => {
    const fake = fakeSession();
    fake.ctx.keymap = rebound({ "edit.killToStart": ["C-x"], "edit.backspace": ["C-g"] });
    const screen = await renderOnFake(fake, <PickRecipient mode="people" title="Write to" onPick={() => {}} close={() => {}} />);
    unmount = screen.unmount;
    await screen.press("o", "t", "h", "x");
    await screen.until(() => screen.frame().includes("Filter: othx"), "the typed filter");
    await screen.press("\x7f"); // Backspace, no longer an erase key here
    expect(screen.frame()).toContain("Filter: othx");
    await screen.press(CTRL_G);
    await screen.until(() => screen.frame().includes("Filter: oth") && !screen.frame().includes("Filter: othx"), "a character erased");
    await screen.press(CTRL_U);
    expect(screen.frame()).toContain("Filter: oth");
    await screen.press(CTRL_X);
    await screen.until(() => !screen.frame().includes("Filter: o"), "the filter cleared");
    expect(screen.frame()).toContain("Filter:");
  });
});

describe("the sidebar filter", () => {
  it("a rebound clear key empties the filter; Ctrl-U no longer does", async () => {
    const general = eg.subscription({ stream_id: 10, name: "general" });
    const fake = fakeSession({
      register: { subscriptions: [general] },
      ui: { focus: "sidebar", sidebar: { ...INITIAL_UI.sidebar, filter: "" } },
    });
    fake.ctx.keymap = rebound({ "sidebarFilter.clear": ["C-x"] });
    const rows = buildSidebarRows(fake.store, {});
    const screen = await renderOnFake(fake, <Sidebar rows={rows} cursor={0} width={30} height={20} focused rowKey={sidebarRowKey} />);
    unmount = screen.unmount;
    await screen.press("g", "e");
    await screen.until(() => fake.ctx.latest().sidebar.filter === "ge", "the filter typed");
    await screen.press(CTRL_U);
    expect(fake.ctx.latest().sidebar.filter).toBe("ge");
    await screen.press(CTRL_X);
    await screen.until(() => fake.ctx.latest().sidebar.filter === "", "the filter cleared");
  });
});
