/**
 * The mouse, off by default (settings: "mouse"): m turns it on or off, and saves the choice.
 * While it is on the terminal's own text selection needs Shift held (most terminals), so the
 * notice says how to get it back.
 */
import type { ActionContext, Feature } from "../app-context.js";
import { saveSetting } from "./people.js";

export function mouseOn(ctx: Pick<ActionContext, "ui" | "settings">): boolean {
  return ctx.ui.mouse ?? ctx.settings.mouse;
}

function toggleMouse(ctx: ActionContext): void {
  const on = !mouseOn(ctx);
  ctx.dispatch({ type: "mouse", on });
  const key = ctx.keymap.hint("toggleMouse");
  saveSetting(
    ctx,
    { mouse: on },
    on
      ? `Mouse on (saved): the wheel scrolls, a click selects or opens a link; ${key} gives the terminal its text selection back`
      : `Mouse off (saved): the terminal selects text as usual; ${key} turns the mouse on`,
  );
}

export const mouseFeature: Feature = {
  name: "mouse",
  bindings: [{ action: "toggleMouse", keys: ["m"], context: "global", help: "Mouse on or off (wheel scrolls, click selects, opens links); saved" }],
  actions: { toggleMouse },
};
