/** Popup keys come from the keymap: rebindable in the settings, listed in the help screen, conflicts refused. */
import { afterEach, describe, expect, it } from "vitest";
import { getMessage, sendMessage } from "../../src/api/routes/messages.js";
import { DEFAULT_SETTINGS } from "../../src/config/settings.js";
import { channelId, KEY, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function myMessageInGeneral(a: AppHarness, content: string): Promise<number> {
  const sent = await sendMessage(a.ctx.client(), { type: "stream", to: channelId(a, "general"), topic: "keys", content });
  await a.press("h", "h");
  await a.sidebarTo("general");
  await a.press(KEY.enter, "\t", "G");
  await a.waitFor(content);
  return sent.id;
}

async function gone(a: AppHarness, id: number): Promise<void> {
  const omar = a.ctx.client("omar");
  let state = "";
  await a.until(() => {
    void getMessage(omar, id).then(
      () => (state = "there"),
      () => (state = "gone"),
    );
    return state === "gone";
  }, "the deletion");
}

describe("popup keys from the keymap", () => {
  it("a rebound confirm key deletes in the confirm-delete popup; the old one no longer does", async () => {
    app = await renderApp({ settings: { ...DEFAULT_SETTINGS, startView: "feed", keys: { "confirm.yes": ["x"] } } });
    await app.waitFor("connected");
    const id = await myMessageInGeneral(app, "rebind then delete");
    await app.press("d");
    const f = await app.waitFor("Delete this message?");
    expect(f).toContain("x delete");
    await app.press("y");
    expect(app.frame()).toContain("Delete this message?");
    expect(app.frame()).not.toContain("Message deleted.");
    await app.press("x");
    await app.waitFor("Message deleted.");
    await gone(app, id);
  });

  it("refuses an override that clashes in the popup's scope, says so, and keeps the defaults", async () => {
    app = await renderApp({ settings: { ...DEFAULT_SETTINGS, startView: "feed", keys: { "confirm.yes": ["n"] } } });
    // The full line also names the scope and keeps the defaults; the status line shows its start at 100 columns.
    await app.waitFor('settings: keys.confirm.yes: "n" is already bound to confirm');
    await myMessageInGeneral(app, "keep the defaults");
    await app.press("d");
    await app.waitFor("y or Enter delete · n or Esc keep");
    await app.press("n");
    await app.until(() => !app!.frame().includes("Delete this message?"), "the popup to close");
    expect(app.frame()).toContain("keep the defaults");
  });

  it("the help screen lists the popups' keys under their own headings", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("?");
    await app.waitFor("termchat keys");
    // down a line at a time until the confirmation popups' heading and its last row are both in view
    const inView = () => app!.frame().includes("Confirmation popups") && app!.frame().includes("Cancel · confirm.no");
    for (let i = 0; i < 400 && !inView(); i++) await app.press("j");
    const f = app.frame();
    expect(f).toContain("Confirmation popups");
    expect(f).toContain("Confirm (delete, deactivate…)");
    expect(f).toContain("Cancel · confirm.no"); // the action's name, for the settings' "keys"
    await app.press("G");
    await app.waitFor("This screen");
    await app.press(KEY.escape);
    await app.until(() => !app!.frame().includes("termchat keys"), "the help to close");
  });
});
