/**
 * The App's two ways in for keys: the compose box while it has the focus
 * (its own editing keys first, then the compose scope's actions), and the
 * keymap for everything else (the focused scope's action, done by a feature).
 */
import type { RefObject } from "react";
import type { ActionContext } from "../app-context.js";
import { featureAction } from "../features/index.js";
import type { Keymap } from "../keymap.js";
import { isPaste } from "../keys.js";
import type { UiAction, UiState } from "../ui-state.js";
import type { useCompose } from "./use-compose.js";
import { useKeypress } from "./use-keypress.js";

export interface AppKeys {
  uiRef: RefObject<UiState>;
  dispatch: (a: UiAction) => void;
  keymap: Keymap;
  /** The context for actions, built from the UI state as of the key (undefined before the store). */
  contextFor: (ui: UiState) => ActionContext | undefined;
  compose: Pick<ReturnType<typeof useCompose>, "edit" | "handleKey">;
  /** Popups take the keys while one is open. */
  popupOpen: boolean;
  quit: () => void;
}

export function useAppKeys({ uiRef, dispatch, keymap, contextFor, compose, popupOpen, quit }: AppKeys): void {
  useKeypress(
    (name, input) => {
      if (uiRef.current.focus !== "compose") return false;
      if (isPaste(name)) {
        compose.edit({ type: "insert", text: input });
        return "typed";
      }
      const ctx = contextFor(uiRef.current);
      if (!ctx) return true;
      // The box's own keys (send, new line, autocomplete, $EDITOR, editing) are in use-compose; other compose actions come from features.
      const taken = compose.handleKey(name, input, ctx);
      if (taken) return taken;
      const action = keymap.action("compose", name);
      if (action) featureAction(action)?.(ctx);
      return true;
    },
    { priority: 100, active: !popupOpen },
  );

  useKeypress(
    (name) => {
      const uiNow = uiRef.current;
      if (uiNow.notice) dispatch({ type: "clearNotice" });
      const ctx = contextFor(uiNow);
      if (!ctx) return keymap.action("global", name) === "quit" ? (quit(), true) : false;
      const scope = uiNow.focus === "compose" ? "global" : uiNow.focus;
      const action = keymap.action(scope, name);
      const run = action ? featureAction(action) : undefined;
      if (!run) return false;
      run(ctx, name);
      return true;
    },
    { priority: 0 },
  );
}
