/**
 * What re-renders when the reader moves in the message pane: the real App on
 * a real account runtime, the sidebar, its rows, the status line and the
 * messages view counted as they render (render-probe.tsx). j and k change the selection only: the message pane
 * draws again, and nothing else does — not the sidebar's rows, not the status
 * line.
 */
import { afterEach, expect, it } from "vitest";
import { markAllAsRead } from "../../src/api/routes/message-flags.js";
import { KEY, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;

/** Waits until nothing has rendered for 300 ms (bounded by the harness's wait). */
async function quiet(a: AppHarness, renders: Map<string, number>): Promise<void> {
  let quietSince = Date.now();
  let seen = -1;
  await a.until(() => {
    const total = [...renders.values()].reduce((n, c) => n + c, 0);
    if (total !== seen) [seen, quietSince] = [total, Date.now()];
    return Date.now() - quietSince > 300;
  }, "the screen to settle");
}
afterEach(async () => {
  await app?.close();
  app = undefined;
});

it("j and k in the message pane draw the pane again, not the sidebar nor the status line", async () => {
  const renders = new Map<string, number>();
  app = await renderApp({ probe: (name) => void renders.set(name, (renders.get(name) ?? 0) + 1) });
  const a = app;
  // Everything read already: moving marks nothing, so no count in the sidebar changes.
  await markAllAsRead(a.ctx.client());
  await a.until(() => a.machine.store!.unreads.size === 0, "everything read");
  await a.press(KEY.escape, "\t");
  await a.until(() => a.frame().includes("▌"), "the message pane with the keys");
  await quiet(a, renders);
  renders.clear();
  await a.press("k", "k", "k", "j", "k", "j");
  await a.until(() => (renders.get("messages") ?? 0) >= 6, "the pane drawn for each key");
  // Anything the keys set off (the account's upkeep, a late effect) has had its turn.
  await quiet(a, renders);
  const counts = Object.fromEntries(renders);
  console.log(`renders for six keys in the message pane: ${JSON.stringify(counts)}`);
  expect(counts.sidebar ?? 0).toBe(0);
  expect(counts["sidebar row"] ?? 0).toBe(0);
  expect(counts["status line"] ?? 0).toBe(0);
});
