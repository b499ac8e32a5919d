/**
 * How state and actions reach components: two React contexts. The actions
 * context (open, notify, run an account action, the context as of now) is
 * made once per account and never changes, so a component that only acts
 * (the sidebar's keys, say) renders again only for its own props. The state
 * context (store, account, UI state, the open narrow…) changes with what is
 * on screen. Features' functions take a plain ActionContext object; a
 * component that calls one builds it from the two contexts
 * (useFeatureContext), or asks the actions for the context as of now.
 */
import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { ActionContext } from "./app-context.js";
import type { UiState } from "./ui-state.js";

type StateKeys = "store" | "account" | "ui" | "latest" | "keymap" | "settings" | "narrow" | "selected" | "messages" | "selectedIndex" | "paneHeight" | "sidebarRows" | "listTarget";

/** What is on screen, and what it is drawn from. */
export type ScreenState = Pick<ActionContext, StateKeys>;
/** What components may do; the same object for as long as the account is on screen. */
export type ScreenActions = Omit<ActionContext, StateKeys> & {
  /** The UI state as of now, ahead of the next render. */
  latest(): UiState;
  /** The whole context as of now: the latest UI state (keys in one burst each see the previous one's effect). */
  now(): ActionContext;
};

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
  return useMemo(() => ({ ...actions, ...state }), [state, actions]);
}

/** The state part of a context. */
export function stateOf(ctx: ActionContext): ScreenState {
  const { store, account, ui, latest, keymap, settings, narrow, selected, messages, selectedIndex, paneHeight, sidebarRows, listTarget } = ctx;
  return { store, account, ui, latest, keymap, settings, narrow, selected, messages, selectedIndex, paneHeight, sidebarRows, listTarget };
}

/** Provides both contexts to the screen below; `actions` should keep its identity from render to render. */
export function ScreenProvider({ state, actions, children }: { state: ScreenState; actions: ScreenActions; children: ReactNode }) {
  return (
    <StateContext.Provider value={state}>
      <ActionsContext.Provider value={actions}>{children}</ActionsContext.Provider>
    </StateContext.Provider>
  );
}

/**
 * The actions alone, for parts that only act (the sidebar, the status line): the state changes at
 * every key, and React looks for its readers through every part under its provider that did not
 * render (some 900 components a key in the message pane and the sidebar of a big organization).
 */
export function ActionsProvider({ actions, children }: { actions: ScreenActions; children: ReactNode }) {
  return <ActionsContext.Provider value={actions}>{children}</ActionsContext.Provider>;
}

/** The state, for the parts under it that read it (the open view, popups). */
export function StateProvider({ state, children }: { state: ScreenState; children: ReactNode }) {
  return <StateContext.Provider value={state}>{children}</StateContext.Provider>;
}
