/**
 * Every feature of the UI. A feature contributes key bindings and the actions
 * they name; add a new one by listing it here.
 */
import type { Action, Feature } from "../app-context.js";
import { composeFeature } from "./compose.js";
import { coreFeature } from "./core.js";

export const FEATURES: Feature[] = [coreFeature, composeFeature];

const ACTIONS = new Map<string, Action>();
for (const f of FEATURES) for (const [name, run] of Object.entries(f.actions)) ACTIONS.set(name, run);

export function featureAction(name: string): Action | undefined {
  return ACTIONS.get(name);
}
