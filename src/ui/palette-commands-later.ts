/**
 * The palette's entries for time and personal lists: scheduled messages,
 * reminders, saved snippets, and navigation views — pin the open view to the
 * sidebar as a view of its own, rename or pin/unpin any view, remove a custom
 * one (a built-in one goes back to its defaults). The server keeps them; every
 * client follows through their events.
 */
import { hasFeature } from "../model/features.js";
import { narrowFragment, navigationViewRows, type NavigationViewRow } from "../model/navigation-views.js";
import { narrowTitle } from "../model/selectors.js";
import type { ActionContext } from "./app-context.js";
import type { PaletteCommand } from "./palette-commands-context.js";
import { openConfirm } from "./popups/Confirm.js";
import { openForm } from "./popups/Form.js";

export function laterCommands(ctx: ActionContext): PaletteCommand[] {
  const { store } = ctx;
  // Scheduled messages, reminders and snippets are in the screen table (screens.tsx), with their entries.
  const out: PaletteCommand[] = [];
  if (!hasFeature(store.realm.featureLevel, "navigationViews")) return out;
  const narrow = ctx.narrow;
  if (narrow && narrow.kind !== "feed") {
    out.push({ id: "views.create", title: "Pin this view to the sidebar…", detail: narrowTitle(store, narrow), run: (c) => createView(c, narrowFragment(store, narrow), narrowTitle(store, narrow)) });
  }
  for (const v of navigationViewRows(store)) {
    out.push({ id: `views.edit.${v.fragment}`, title: `Edit the view ${v.name}`, detail: v.isPinned ? "pinned" : "not pinned", run: (c) => editView(c, v) });
    const recorded = store.personal.navigationViews.has(v.fragment);
    if (!v.builtIn || recorded) {
      out.push({ id: `views.remove.${v.fragment}`, title: `${v.builtIn ? "Reset" : "Remove"} the view ${v.name}`, detail: v.builtIn ? "back to its defaults" : "custom view", run: (c) => removeView(c, v) });
    }
  }
  return out;
}

function createView(ctx: ActionContext, fragment: string, title: string): void {
  openForm(ctx, {
    title: "Pin this view to the sidebar",
    subtitle: fragment,
    fields: [
      { kind: "text", name: "name", label: "Name", initial: title, validate: (v) => (v.trim() ? undefined : "A view needs a name.") },
      { kind: "toggle", name: "pinned", label: "Pinned in the sidebar", initial: true },
    ],
    onSubmit: (v) => {
      const name = String(v["name"] ?? "").trim();
      ctx.attempt(() => ctx.account.actions.createNavigationView({ fragment, isPinned: v["pinned"] === true, name }), `View ${name} saved.`);
    },
  });
}

function editView(ctx: ActionContext, view: NavigationViewRow): void {
  openForm(ctx, {
    title: `The view ${view.name}`,
    subtitle: view.builtIn ? "A built-in view: it keeps its name." : view.fragment,
    fields: [
      ...(view.builtIn ? [] : [{ kind: "text" as const, name: "name", label: "Name", initial: view.name, validate: (v: string) => (v.trim() ? undefined : "A view needs a name.") }]),
      { kind: "toggle", name: "pinned", label: "Pinned in the sidebar", initial: view.isPinned },
    ],
    onSubmit: (v) => {
      const p: { isPinned?: boolean; name?: string } = {};
      if (v["pinned"] !== view.isPinned) p.isPinned = v["pinned"] === true;
      const name = typeof v["name"] === "string" ? v["name"].trim() : undefined;
      if (name !== undefined && name !== view.name) p.name = name;
      if (Object.keys(p).length === 0) return ctx.notify("Nothing changed");
      ctx.attempt(() => ctx.account.actions.editNavigationView(view.fragment, p), `View ${p.name ?? view.name} changed.`);
    },
  });
}

function removeView(ctx: ActionContext, view: NavigationViewRow): void {
  openConfirm(ctx, {
    title: `${view.builtIn ? "Reset" : "Remove"} the view ${view.name}?`,
    lines: [view.builtIn ? "It shows as it does by default (pinned)." : "It leaves the sidebar of every client of yours."],
    action: view.builtIn ? "reset" : "remove",
    onConfirm: () => ctx.attempt(() => ctx.account.actions.removeNavigationView(view.fragment), `View ${view.name} ${view.builtIn ? "reset" : "removed"}.`),
  });
}
