/**
 * The screen's own state (ui-state.ts): a reducer mirrored in a ref updated
 * synchronously, so keys that arrive in one burst (before React renders
 * again) each see the state the previous key left. The first screen with data
 * is the user's home view (the Inbox unless they chose the combined feed), or
 * the narrow a start from the local cache was showing; key settings that
 * could not be applied are said on it. Each account keeps its own (kept with
 * its handle), so switching organizations and back finds the screen as it was.
 */
import { useCallback, useMemo, useRef, useState, type RefObject } from "react";
import { DEFAULT_SETTINGS, type Settings } from "../../config/settings.js";
import { sidebarIndex } from "../screens.js";
import type { Store } from "../../model/store.js";
import type { AccountHandle } from "../../sync/account-handle.js";
import { FEATURES } from "../features/index.js";
import { Keymap } from "../keymap.js";
import { INITIAL_UI, homeView, uiReducer, type UiAction, type UiState } from "../ui-state.js";

export function defaultKeymap(settings: Settings = DEFAULT_SETTINGS): { keymap: Keymap; problems: string[] } {
  return Keymap.withOverrides(
    FEATURES.flatMap((f) => f.bindings),
    settings.keys,
  );
}

/** Opens the user's home view, with the sidebar's cursor on its row (the views are the first rows). */
export function homeAction(store: Store, settings: Settings): UiAction {
  const home = homeView(store, settings.startView);
  return { type: "home", home, cursor: sidebarIndex(store, home) };
}

function withKeyProblems(ui: UiState, problems: string[]): UiState {
  if (problems.length === 0) return ui;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more key settings problem${problems.length > 2 ? "s" : ""})` : "";
  return uiReducer(ui, { type: "notice", text: problems[0] + more, kind: "error" });
}

/** A start from the local cache opens the narrow that was open when it was written. */
function cachedView(ui: UiState, account: AccountHandle, store: Store): UiState {
  const n = account.startNarrow;
  return n && account.fromCache(store) ? uiReducer(ui, { type: "open", narrow: n, focus: "messages" }) : ui;
}

/** Per account: the screen's state when it was last shown. */
const LAST_UI = Symbol("the UI state last shown");

export interface UiStateHook {
  keymap: Keymap;
  ui: UiState;
  /** The state as of now, ahead of the next render. */
  uiRef: RefObject<UiState>;
  dispatch(a: UiAction): void;
}

export function useUiState(account: AccountHandle, settings: Settings, keymapGiven?: Keymap): UiStateHook {
  const { keymap, problems } = useMemo(() => (keymapGiven ? { keymap: keymapGiven, problems: [] } : defaultKeymap(settings)), [keymapGiven, settings]);
  // An account put on screen again (several organizations) comes back as it was left.
  const kept = account.keep<{ ui?: UiState }>(LAST_UI, () => ({}));
  const [initial] = useState(() => {
    // The compose box is opened again by the user (its text waits in the journal); the focus leaves it.
    if (kept.ui) return { ...kept.ui, notice: undefined, compose: undefined, focus: kept.ui.focus === "compose" ? "messages" : kept.ui.focus };
    const first = account.store();
    return withKeyProblems(first ? cachedView(uiReducer(INITIAL_UI, homeAction(first, settings)), account, first) : INITIAL_UI, problems);
  });
  const uiRef = useRef<UiState>(initial);
  const [ui, setUi] = useState<UiState>(initial);
  const dispatch = useCallback((a: UiAction) => {
    uiRef.current = uiReducer(uiRef.current, a);
    kept.ui = uiRef.current;
    setUi(uiRef.current);
  }, [kept]);
  return { keymap, ui, uiRef, dispatch };
}
