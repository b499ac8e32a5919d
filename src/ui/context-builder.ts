/**
 * Builds the context features' actions run with, from the UI state as of a
 * key: keys in one burst each see the state the previous one left (the App
 * keeps that state in a ref ahead of React's render), so the open narrow,
 * its messages and the selection are worked out again when they changed.
 */
import type { Message } from "../api/schemas/common.js";
import type { Settings } from "../config/settings.js";
import { narrowKey, type Narrow } from "../model/narrow.js";
import { narrowMessages } from "../model/selectors.js";
import type { Store } from "../model/store.js";
import { actionError } from "../sync/actions/result.js";
import type { AccountHandle } from "../sync/account-handle.js";
import type { ActionContext } from "./app-context.js";
import { selectionIndex } from "./hooks/use-message-window.js";
import type { useCompose } from "./hooks/use-compose.js";
import type { Keymap } from "./keymap.js";
import { listTarget } from "./list-rows.js";
import { buildSidebarRows, type SidebarRow } from "./sidebar-rows.js";
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
  dispatch: (a: UiAction) => void;
  keymap: Keymap;
  settings: Settings;
  openPopup: ActionContext["openPopup"];
  compose: Pick<ReturnType<typeof useCompose>, "open" | "edit">;
  writeTerminal: (seq: string) => void;
  quit: () => void;
}

/** The context for actions at a given UI state; undefined until the store is there. */
export function contextBuilder(p: ContextParts): (uiNow: UiState) => ActionContext | undefined {
  const { store, dispatch } = p;
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
      dispatch,
      keymap: p.keymap,
      settings: p.settings,
      narrow: narrowNow,
      // Before a narrow's messages arrive, the message chosen on opening it (s, S, z) stays selected.
      selected: messagesNow[indexNow] ?? (narrowNow ? chosenMessage(store, selectionOf(uiNow, narrowNow)) : undefined),
      messages: messagesNow,
      selectedIndex: indexNow,
      paneHeight: p.paneHeight,
      sidebarRows: sameSidebar(uiNow, p.ui) ? p.sidebarRows : buildSidebarRows(store, uiNow.sidebar),
      listTarget: () => listTarget(store, uiNow),
      openNarrow: (n: Narrow, o = {}) => dispatch({ type: "open", narrow: n, focus: o.focus ?? "messages", select: o.select }),
      openPopup: p.openPopup,
      openCompose: (t, o) => p.compose.open(t, o),
      insertIntoCompose: (text, key) => {
        if (p.latest().compose?.key !== key) return false;
        p.compose.edit({ type: "insert", text });
        return true;
      },
      notify: (text, kind = "info") => dispatch({ type: "notice", text, kind }),
      attempt: (work, done) => {
        void work().then(
          (r) => (r.ok ? done && dispatch({ type: "notice", text: done, kind: "info" }) : dispatch({ type: "notice", text: r.error.message, kind: "error" })),
          (err: unknown) => dispatch({ type: "notice", text: actionError(err).message, kind: "error" }),
        );
      },
      writeTerminal: p.writeTerminal,
      quit: p.quit,
    };
  };
}

/** Whether two UI states show the same sidebar rows (the cursor aside). */
function sameSidebar(a: UiState, b: UiState): boolean {
  return a.sidebar.expanded === b.sidebar.expanded && a.sidebar.filter === b.sidebar.filter && a.sidebar.collapsedFolders === b.sidebar.collapsedFolders;
}

/** The message chosen in a narrow, from the store (it may not be in the narrow's loaded list yet). */
function chosenMessage(store: Store, sel: Selection): Message | undefined {
  return sel.id === undefined || sel.follow ? undefined : store.messages.byId.get(sel.id);
}
