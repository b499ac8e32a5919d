/**
 * Every feature of the UI. A feature contributes key bindings and the actions
 * they name; add a new one by listing it here.
 */
import type { Action, Feature } from "../app-context.js";
import { composeFeature } from "./compose.js";
import { coreFeature } from "./core.js";
import { messageActionsFeature } from "./message-actions.js";
import { navigationFeature } from "./navigation.js";
import { sidebarFeature } from "./sidebar-filter.js";
import { peopleFeature } from "./people.js";
import { searchFeature } from "./search.js";
import { paletteFeature } from "./palette.js";
import { popupsFeature } from "./popups.js";
import { editingFeature } from "./editing.js";
import { widgetsFeature } from "./widgets.js";
import { promptsFeature } from "./prompts.js";
import { filesFeature } from "./files.js";
import { imagesFeature } from "./images.js";
import { laterFeature } from "./later.js";
import { mouseFeature } from "./mouse.js";
import { findingFeature } from "./finding.js";
import { organizationsFeature } from "./organizations.js";
import { forSpectators } from "../spectator.js";

export const FEATURES: Feature[] = [coreFeature, composeFeature, peopleFeature, navigationFeature, sidebarFeature, messageActionsFeature, searchFeature, paletteFeature, editingFeature, widgetsFeature, promptsFeature, filesFeature, findingFeature, laterFeature, popupsFeature, imagesFeature, mouseFeature, organizationsFeature];

/** Every feature's actions by name (later features' actions of the same name win). */
const ACTIONS: ReadonlyMap<string, Action> = new Map(FEATURES.flatMap((f) => Object.entries(f.actions)));

/** The action of that name; for a spectator, those that need an account say so instead (spectator.ts). */
export function featureAction(name: string): Action | undefined {
  return forSpectators(name, ACTIONS.get(name));
}
