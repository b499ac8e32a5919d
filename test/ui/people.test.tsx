/** The people list (w) in the real App: presence and status, the filter, Enter opens a DM, u the card; T switches theme and saves it. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { updatePresence } from "../../src/api/routes/presence.js";
import { KEY, renderApp, type AppHarness } from "./render-app.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Waits (bounded, rendering meanwhile) until the frame satisfies `check`; returns that frame. */
async function until(a: AppHarness, check: (frame: string) => boolean, what: string): Promise<string> {
  await a.until(() => check(a.frame()), what);
  return a.frame();
}

const titleOf = (frame: string) => frame.split("\n")[0] ?? "";
/** The popup's inside (right of the sidebar): what the people list shows. */
const popupText = (frame: string) =>
  frame
    .split("\n")
    .map((l) => (l.includes("│") ? l.slice(l.indexOf("│") + 1) : ""))
    .join("\n");

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe("the people list", () => {
  it("lists people with status; the filter narrows it; Enter opens a DM with the chosen person", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("w");
    let f = await app.waitFor("People");
    expect(f).toContain("Ben Carter");
    expect(f).toContain("Out Friday afternoon"); // Ben's status text
    expect(f).toContain("Maya Okafor (you)");
    expect(f).toMatch(/\d+ people · \d+ active/);

    await app.press("/", "p", "r", "i");
    f = popupText(await app.waitFor("/ pri"));
    expect(f).toContain("Priya Raman");
    expect(f).not.toContain("Ben Carter");
    expect(f).toMatch(/1 person ·/);
    await app.press(KEY.escape); // back to the list, the filter kept
    await app.press(KEY.enter);
    f = await until(app, (s) => !s.includes("u card"), "the list to close");
    expect(titleOf(f)).toContain("Priya Raman"); // the open conversation's title
    // The DM is open: a reply goes to Priya.
    await app.press("r");
    const compose = await app.waitFor("Enter send");
    expect(compose).toMatch(/Priya Raman/);
  });

  it("follows presence live while the list is open", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("w");
    const f = popupText(await app.waitFor("People"));
    expect(f).toMatch(/○ Diego Alvarez/);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 1000)); // the start-up work (Markdown engine and all) is over: nothing else redraws
    });
    await updatePresence(app.ctx.client("diego"), { status: "active" }); // Diego opens his laptop
    await until(app, (s) => /● Diego Alvarez/.test(popupText(s)), "Diego shown active");
  });

  it("nothing matches: says so; Backspace widens the filter again; Enter in the filter opens the top match", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("w");
    await app.waitFor("People");
    await app.press("/", "z", "z", "q");
    await app.waitFor("Nobody matches.");
    await app.press(KEY.backspace, KEY.backspace, KEY.backspace, "h", "a", "n");
    await app.waitFor("Hana Suzuki");
    await app.press(KEY.enter);
    await until(app, (s) => titleOf(s).includes("Hana Suzuki") && !s.includes("u card"), "the DM with Hana");
  });

  it("u shows the person's card over the list; Esc returns to the list, Esc again closes it", async () => {
    app = await renderApp();
    await app.sidebarTo("Combined feed");
    await app.press(KEY.enter); // focus in the message pane: w works there too
    await app.press("w");
    await app.waitFor("People");
    await app.press("/", "b", "e", "n", KEY.escape, "u");
    const card = await app.waitFor("Administrator");
    expect(card).toContain("Ben Carter");
    expect(card).toContain("Europe/London");
    await app.press(KEY.escape);
    await app.waitFor("u card");
    await app.press(KEY.escape);
    await until(app, (s) => !s.includes("u card"), "the list to close");
  });
});

describe("the people list and the card over it", () => {
  it("closing a card brings the list back with the cursor on the same person", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("w");
    await app.waitFor("People");
    await app.press("j", "j", "j");
    const chosen = /▌ . ([A-Z][a-z]+ [A-Z][a-z]+)/.exec(popupText(app.frame()))?.[1];
    expect(chosen).toBeDefined();
    expect(popupText(app.frame())).not.toMatch(/▌ . Ben Carter/); // not the first row
    await app.press("u");
    await app.waitFor("Local time");
    await app.press(KEY.escape);
    const back = await app.waitFor("u card");
    expect(popupText(back)).toMatch(new RegExp(`▌ . ${chosen}`));
  });
});

describe("the theme key", () => {
  const saved = process.env.XDG_CONFIG_HOME;
  let dir: string | undefined;
  afterEach(async () => {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("T cycles dark → light → 16 colours and saves the choice in the settings file", async () => {
    dir = await mkdtemp(join(tmpdir(), "termchat-theme-"));
    process.env.XDG_CONFIG_HOME = dir;
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("T");
    await app.waitFor("Theme: light (saved)");
    const file = join(dir, "termchat", "config.json");
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ theme: "light" });
    await app.press("T");
    await app.waitFor("Theme: 16 (saved)");
    await app.press("T");
    await app.waitFor("Theme: dark (saved)");
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ theme: "dark" });
  });
});
