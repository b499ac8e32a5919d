import { afterEach, expect, it } from "vitest";
import { KEY, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

it("r in the sidebar replies in the open conversation, so typed text goes into the compose box", async () => {
  app = await renderApp();
  await app.waitFor("connected");
  await app.sidebarTo("engineering");
  await app.press(KEY.enter, "j", KEY.enter, "h"); // open a topic, then back to the sidebar
  await app.waitFor(/#engineering > /);
  await app.press("r");
  await app.waitFor("Enter send");
  await app.press("thanks @pri");
  const f = await app.waitFor("thanks @pri");
  expect(f).toContain("#engineering > ");
});
