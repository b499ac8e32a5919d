/**
 * The App in terminals of 120×36, 80×24 and 50×15 (the in-process demo
 * server): the status line says the connection's state whole, giving up the
 * organization and the user first; popups sit beside the sidebar while the
 * message pane leaves them room, and take the whole width at 50 columns.
 */
import { afterEach, describe, expect, it } from "vitest";
import { displayWidth } from "../../src/render/wrap.js";
import { renderApp, type AppHarness } from "./render-app.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const lastLine = (frame: string) => frame.split("\n").filter((l) => l.trim() !== "").at(-1) ?? "";

describe.each([
  [120, 36],
  [80, 24],
  [50, 15],
])("a %i×%i terminal", (columns, rows) => {
  it("says the connection's state whole in the status line, and lays popups out to fit", async () => {
    app = await renderApp({ size: { columns, rows } });
    const f = await app.waitFor(/● connected/);
    const status = lastLine(f);
    expect(status).toMatch(/^● connected\s/);
    expect(status).toContain("? help");
    if (columns >= 80) expect(status).toContain("Lighthouse Labs · Maya Okafor");
    for (const line of f.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
    expect(f.split("\n").length).toBeLessThanOrEqual(rows);

    await app.press("w");
    const popup = await app.waitFor("People");
    const top = popup.split("\n").find((l) => l.includes("╭"))!;
    if (columns === 50) {
      // The whole width: no sidebar beside it.
      expect(top.indexOf("╭")).toBe(0);
      expect(displayWidth(top)).toBe(50);
    } else {
      expect(top.indexOf("╭")).toBeGreaterThan(20);
      expect(popup).toContain("Combined feed"); // the sidebar stays
    }
    for (const hint of ["j/k move", "Enter message", "u card", "/ filter", "Esc close"]) expect(popup).toContain(hint);
  });
});
