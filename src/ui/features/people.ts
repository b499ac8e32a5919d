/** People (w: the user list with presence and status) and the theme switch (T: dark → light → 16 colours, saved). */
import { createElement } from "react";
import { THEMES, openSettings, type Settings, type ThemeName } from "../../config/settings.js";
import { dmParticipants } from "../../model/narrow.js";
import type { UserRow } from "../../model/selectors-views.js";
import { perform } from "../../sync/actions/result.js";
import type { ActionContext, Feature } from "../app-context.js";
import { chosenTheme, terminalBackground } from "../look.js";
import { terminalCapabilities } from "../terminal/capabilities.js";
import { newPeopleState, People, personSummary, type PeopleState } from "../popups/People.js";
import { openUserCard } from "../popups/UserCard.js";

export function openPeople(ctx: ActionContext): void {
  // Kept here, with the popup: a card opened over the list and closed again finds it as it was.
  const state: PeopleState = newPeopleState();
  ctx.openPopup((close) =>
    createElement(People, {
      close,
      state,
      onOpen: (row: UserRow) => {
        close();
        ctx.openNarrow({ kind: "dm", userIds: dmParticipants([row.userId], ctx.store.selfId) }, { focus: "messages" });
      },
      onCard: (row: UserRow) => showCard(ctx, row),
    }),
  );
}

/** The person's card (over the list; closing it comes back here). */
function showCard(ctx: ActionContext, row: UserRow): void {
  if (ctx.store.users.has(row.userId)) openUserCard(ctx, row.userId);
  else ctx.notify(personSummary(ctx, row));
}

export function nextTheme(current: ThemeName): ThemeName {
  return THEMES[(THEMES.indexOf(current) + 1) % THEMES.length] ?? "dark";
}

/** Saves a setting chosen at run time; `done` says so once it is written. */
export function saveSetting(ctx: ActionContext, patch: Partial<Settings>, done: string): void {
  ctx.attempt(
    () =>
      perform(async () => {
        const file = await openSettings();
        file.save(patch);
        if (file.problems.length && !file.path) throw new Error(file.problems[0]);
      }),
    done,
  );
}

function cycleTheme(ctx: ActionContext): void {
  const next = nextTheme(chosenTheme(ctx.settings.theme, ctx.ui.theme, terminalBackground(terminalCapabilities())));
  ctx.dispatch({ type: "theme", theme: next });
  saveSetting(ctx, { theme: next }, `Theme: ${next} (saved)`);
}

export const peopleFeature: Feature = {
  name: "people",
  bindings: [
    { action: "people", keys: ["w"], context: "sidebar", help: "People: who is here, their status; Enter to message" },
    { action: "people", keys: ["w"], context: "messages", help: "People: who is here, their status; Enter to message" },
    { action: "cycleTheme", keys: ["T"], context: "global", help: "Next colour theme (dark, light, 16 colours); saved" },
  ],
  actions: {
    people: openPeople,
    cycleTheme,
  },
};
