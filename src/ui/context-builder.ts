/**
 * The context features' actions run with. Its actions are made once per
 * account (useScreenActionsOf) and read what they need when called; its state
 * is worked out for a given UI state (contextBuilder): keys in one burst each
 * see the state the previous one left (the App keeps that state in a ref
 * ahead of React's render), so the open narrow, its messages, the selection
 * and the sidebar's rows are worked out again when they changed.
 */
import { useMemo, useRef } from "react";
import type { Message } from "../api/schemas/common.js";
import type { Settings } from "../config/settings.js";
import { narrowKey, type Narrow } from "../model/narrow.js";
import { narrowMessages } from "../model/selectors.js";
import type { Store } from "../model/store.js";
import { SPECTATOR_LINE, type AccountHandle } from "../sync/account-handle.js";
import { actionError } from "../sync/actions/result.js";
import type { ActionContext } from "./app-context.js";
import type { ScreenActions, ScreenState } from "./contexts.js";
import { selectionIndex } from "./hooks/use-message-window.js";
import type { useCompose } from "./hooks/use-compose.js";
import type { Keymap } from "./keymap.js";
import { listTarget } from "./list-rows.js";
import type { SidebarRow } from "./sidebar-rows.js";
import { sidebarRowsOf, type OrgSummary } from "./organizations.js";
import { currentNarrow, selectionOf, type Selection, type UiAction, type UiState } from "./ui-state.js";

export interface ContextParts {
  store: Store | undefined;
  account: AccountHandle;
  /** The rendered UI state, and what was worked out from it for this render. */
  ui: UiState;
  narrow: Narrow | undefined;
  messages: Message[];
  selectedIndex: number;
  paneHeight: number;
  /** The sidebar's rows as the rendered UI state shows them. */
  sidebarRows: SidebarRow[];
  latest: () => UiState;
  keymap: Keymap;
  settings: Settings;
  /** The open organizations, when there are several (their sections frame the sidebar's rows). */
  orgs?: OrgSummary[];
}

/** The state of the context at a given UI state; undefined until the store is there. */
export function contextBuilder(p: ContextParts): (uiNow: UiState) => ScreenState | undefined {
  const { store } = p;
  return (uiNow) => {
    if (!store) return undefined;
    const narrowNow = currentNarrow(uiNow);
    const same = narrowNow === p.narrow || (narrowNow && p.narrow && narrowKey(narrowNow) === narrowKey(p.narrow));
    const messagesNow = same ? p.messages : narrowNow ? narrowMessages(store, narrowNow) : [];
    const indexNow =
      same && uiNow.selection === p.ui.selection ? p.selectedIndex : selectionIndex(store, messagesNow, narrowNow ? selectionOf(uiNow, narrowNow) : { follow: true, initial: true });
    return {
      store,
      account: p.account,
      ui: uiNow,
      latest: p.latest,
      keymap: p.keymap,
      settings: p.settings,
      narrow: narrowNow,
      // Before a narrow's messages arrive, the message chosen on opening it (s, S, z) stays selected.
      selected: messagesNow[indexNow] ?? (narrowNow ? chosenMessage(store, selectionOf(uiNow, narrowNow)) : undefined),
      messages: messagesNow,
      selectedIndex: indexNow,
      paneHeight: p.paneHeight,
      sidebarRows: sameSidebar(uiNow, p.ui) ? p.sidebarRows : sidebarRowsOf(store, uiNow.sidebar, p.orgs),
      listTarget: () => listTarget(store, uiNow),
    };
  };
}

/** What the actions reach, as of the latest render. */
export interface ActionParts {
  stateFor: (ui: UiState) => ScreenState | undefined;
  latest: () => UiState;
  dispatch: (a: UiAction) => void;
  openPopup: ActionContext["openPopup"];
  /** The other open accounts (several): the same for as long as the account is on screen. */
  organizations?: ActionContext["organizations"];
  compose: Pick<ReturnType<typeof useCompose>, "open" | "edit">;
  writeTerminal: (seq: string) => void;
  quit: () => void;
}

/** The screen's actions for an account: one object for as long as the account is shown, reading the latest render's parts when called. */
export function useScreenActionsOf(account: AccountHandle, parts: ActionParts): ScreenActions {
  const live = useRef(parts);
  live.current = parts;
  return useMemo((): ScreenActions => {
    const dispatch = (a: UiAction) => live.current.dispatch(a);
    const actions: Omit<ScreenActions, "now" | "latest"> = {
      dispatch,
      openNarrow: (n, o = {}) => dispatch({ type: "open", narrow: n, focus: o.focus ?? "messages", select: o.select }),
      openPopup: (render) => live.current.openPopup(render),
      // A spectator never gets a compose box, whichever way it was asked for (a popup's Enter, a draft).
      openCompose: (t, o) => (account.spectator ? dispatch({ type: "notice", text: SPECTATOR_LINE, kind: "info" }) : live.current.compose.open(t, o)),
      insertIntoCompose: (text, key) => {
        if (live.current.latest().compose?.key !== key) return false;
        live.current.compose.edit({ type: "insert", text });
        return true;
      },
      notify: (text, kind = "info") => dispatch({ type: "notice", text, kind }),
      attempt: (work, done) => {
        void work().then(
          (r) => (r.ok ? done && dispatch({ type: "notice", text: done, kind: "info" }) : dispatch({ type: "notice", text: r.error.message, kind: "error" })),
          (err: unknown) => dispatch({ type: "notice", text: actionError(err).message, kind: "error" }),
        );
      },
      writeTerminal: (seq) => live.current.writeTerminal(seq),
      organizations: parts.organizations,
      quit: () => live.current.quit(),
    };
    const now = (): ActionContext => {
      const state = live.current.stateFor(live.current.latest());
      if (!state) throw new Error(`${account.email}: no store yet`);
      return { ...state, ...actions };
    };
    return { ...actions, latest: () => live.current.latest(), now };
  }, [account]);
}

/** Whether two UI states show the same sidebar rows (the cursor aside). */
function sameSidebar(a: UiState, b: UiState): boolean {
  return a.sidebar.expanded === b.sidebar.expanded && a.sidebar.filter === b.sidebar.filter && a.sidebar.collapsedFolders === b.sidebar.collapsedFolders;
}

/** The message chosen in a narrow, from the store (it may not be in the narrow's loaded list yet). */
function chosenMessage(store: Store, sel: Selection): Message | undefined {
  return sel.id === undefined || sel.follow ? undefined : store.messages.byId.get(sel.id);
}
