/**
 * How state and actions reach components: two React contexts, filled by the
 * App from one ActionContext. Components read what is on screen (store,
 * the account, UI state, the open narrow) from the state context and do things
 * (open, notify, run a sync action) through the actions context. Features'
 * functions take a plain ActionContext object; a component that calls one
 * builds it from the two contexts (useFeatureContext).
 */
import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { ActionContext } from "./app-context.js";

type StateKeys = "store" | "account" | "ui" | "latest" | "keymap" | "settings" | "narrow" | "selected" | "messages" | "selectedIndex" | "paneHeight" | "sidebarRows" | "listTarget";

/** What is on screen, and what it is drawn from. */
export type ScreenState = Pick<ActionContext, StateKeys>;
/** What components may do. */
export type ScreenActions = Omit<ActionContext, StateKeys>;

const StateContext = createContext<ScreenState | null>(null);
const ActionsContext = createContext<ScreenActions | null>(null);

export function useScreenState(): ScreenState {
  const s = useContext(StateContext);
  if (!s) throw new Error("useScreenState outside a ScreenProvider");
  return s;
}

export function useScreenActions(): ScreenActions {
  const a = useContext(ActionsContext);
  if (!a) throw new Error("useScreenActions outside a ScreenProvider");
  return a;
}

/** State and actions as the one plain object features' functions take (openAt, reactWith…). */
export function useFeatureContext(): ActionContext {
  const state = useScreenState();
  const actions = useScreenActions();
  return useMemo(() => ({ ...state, ...actions }), [state, actions]);
}

/** Splits one ActionContext into the state and the actions. */
export function splitContext(ctx: ActionContext): { state: ScreenState; actions: ScreenActions } {
  const { store, account, ui, latest, keymap, settings, narrow, selected, messages, selectedIndex, paneHeight, sidebarRows, listTarget, ...actions } = ctx;
  return { state: { store, account, ui, latest, keymap, settings, narrow, selected, messages, selectedIndex, paneHeight, sidebarRows, listTarget }, actions };
}

/** Provides both contexts to the screen below. */
export function ScreenProvider({ ctx, children }: { ctx: ActionContext; children: ReactNode }) {
  const { state, actions } = useMemo(() => splitContext(ctx), [ctx]);
  return (
    <StateContext.Provider value={state}>
      <ActionsContext.Provider value={actions}>{children}</ActionsContext.Provider>
    </StateContext.Provider>
  );
}
