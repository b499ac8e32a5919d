/**
 * The screen of one account: the sidebar beside the open view (messages or a
 * list view), popups over it, and a status line. The account is given as a
 * handle (its store, its feed, its actions); UI state lives in a reducer
 * (ui-state.ts) and survives store rebuilds; keys go through the keymap to
 * the features' actions. This file only wires the parts together: the
 * account to the screen here, each part's work in its own hook or component.
 */
import { useApp, useStdout } from "ink";
import { useEffect, useMemo, useRef, useState } from "react";
import { DEFAULT_SETTINGS, type Settings } from "../config/settings.js";
import { narrowKey } from "../model/narrow.js";
import type { AccountHandle, AccountsView } from "../sync/account-handle.js";
import { Connecting, Screen, screenSize } from "./components/Screen.js";
import { statusRows } from "./components/StatusLine.js";
import { composeTextWidth } from "./compose-wrap.js";
import { contextBuilder, useScreenActionsOf } from "./context-builder.js";
import type { ActionContext } from "./app-context.js";
import { useAccountNotices, useAccountStore } from "./hooks/use-account.js";
import { useAppKeys } from "./hooks/use-app-keys.js";
import { composeRows, useCompose } from "./hooks/use-compose.js";
import { useFirstFrame } from "./hooks/use-first-frame.js";
import { useLook } from "./hooks/use-look.js";
import { useMoveFollow } from "./hooks/use-move-follow.js";
import { useOpenView } from "./hooks/use-open-view.js";
import { useRenderProbe } from "./render-probe.js";
import { useSidebarFollowsView } from "./hooks/use-sidebar-follow.js";
import { useStoreVersion } from "./hooks/use-store.js";
import { useTerminalSize } from "./hooks/use-terminal-size.js";
import { homeAction, useUiState } from "./hooks/use-ui-state.js";
import { drawnByTerminal, terminalGraphics } from "./images/graphics.js";
import { useImagePreviews } from "./images/use-image-previews.js";
import type { Keymap } from "./keymap.js";
import { EXPAND_KEY } from "../render/condense.js";
import { LayoutCache } from "./layout-cache.js";
import { mouseOn } from "./features/mouse.js";
import { withHitMap } from "./mouse/hit-map.js";
import { useMouse } from "./mouse/use-mouse.js";
import { noteSequence, noteTitle } from "./notifications.js";
import { sidebarRowsOf } from "./organizations.js";
import { useOrganizations } from "./hooks/use-organizations.js";
import { usePopupStack } from "./popups/PopupHost.js";
import { filterCursor, sidebarRowKey } from "./sidebar-rows.js";
import { usesAlternateScreen } from "./terminal/screen-mode.js";
import type { UiState } from "./ui-state.js";
import { OpenView } from "./views/OpenView.js";

export interface AppProps {
  /** The account on screen. */
  account: AccountHandle;
  /** Every open account, when there are several (their sections in the sidebar, switching). */
  accounts?: AccountsView;
  settings?: Settings;
  keymap?: Keymap;
  color?: boolean;
  onQuit?: () => void;
  /** Called once, after the first frame that shows the organization (start-up measurements). */
  onFirstFrame?: () => void;
  /** A notice for the status line at start: a warning (TLS verification turned off, the cache not used) or a note (the demo's organization is in memory only). */
  startNotice?: { text: string; kind: "info" | "error" };
  /** The message layouts' cache (given by measurements that count its work; else the App's own). */
  layoutCache?: LayoutCache;
}

export function App({ account, accounts, settings = DEFAULT_SETTINGS, keymap: keymapGiven, color = true, onQuit, onFirstFrame, startNotice, layoutCache: layoutCacheGiven }: AppProps) {
  useRenderProbe("app");
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize();
  const { keymap, ui, uiRef, dispatch } = useUiState(account, settings, keymapGiven);

  // The account, wired to the screen: its store (the home view opens in the same render as the
  // first one), its notices to the status line, its notifications to the terminal as the
  // settings say, and the moves it tells to the open view and the compose box.
  const { store, conn } = useAccountStore(account, (s) => dispatch(homeAction(s, settings)));
  const version = useStoreVersion(store);
  useAccountNotices(account, {
    notice: (n) => dispatch({ type: "notice", text: n.text, kind: n.kind }),
    notify: (note) => {
      const seq = noteSequence(note, settings.notifications, orgs && account.name);
      if (seq) stdout.write(seq);
    },
  });
  // The other organizations: their sections, their notifications (named, and said in the status line), switching.
  const { orgs, control: organizations } = useOrganizations(accounts, account, store, {
    otherNote: (note, org) => {
      const seq = noteSequence(note, settings.notifications, org);
      if (seq) stdout.write(seq);
      dispatch({ type: "notice", text: `${noteTitle(note, org)}: ${note.body}`, kind: "info" });
    },
    open: (narrow) => dispatch({ type: "open", narrow, focus: "messages" }),
    notice: (text) => dispatch({ type: "notice", text, kind: "error" }),
  });
  useEffect(() => {
    if (startNotice) dispatch({ type: "notice", text: startNotice.text, kind: startNotice.kind });
  }, [startNotice, dispatch]);

  const look = useLook(settings, ui.theme, color);
  const popups = usePopupStack();
  // A long notice takes up to four rows above the status line, until the next key clears it.
  const status = {
    state: conn,
    organization: orgs ? `${account.name} · ${store?.realm.name ?? ""}` : (store?.realm.name ?? ""),
    user: store ? store.userName(store.selfId) : account.email,
    notice: store ? ui.notice?.text : undefined,
    noticeKind: ui.notice?.kind,
    cached: account.fromCache(store),
    width: columns,
  };
  const size = screenSize(columns, rows, statusRows(status));
  const compose = useCompose({
    store,
    account,
    compose: ui.compose,
    dispatch,
    textWidth: composeTextWidth(size.mainWidth),
    onSent: () => dispatch({ type: "select", id: undefined, follow: true }),
  });
  const composeRef = useRef(compose);
  composeRef.current = compose;
  useMoveFollow(
    account,
    uiRef,
    dispatch,
    (target, text) => composeRef.current.open(target, { initialText: text }),
    () => composeRef.current.editor.current.text,
  );
  const paneHeight = Math.max(3, size.bodyHeight - 1 - composeRows(ui.compose, compose.editor.current, composeTextWidth(size.mainWidth)));

  const markdownReady = useFirstFrame(store, onFirstFrame);
  const sidebarRows = useMemo(() => (store ? sidebarRowsOf(store, ui.sidebar, orgs) : []), [store, version, ui.sidebar.expanded, ui.sidebar.filter, ui.sidebar.collapsedFolders, orgs]);
  // Half-block images are Unicode: with ASCII glyphs only a terminal's own graphics can show them.
  const previews = settings.imagePreviews && (!look.ascii || drawnByTerminal(terminalGraphics().mode));
  const { images } = useImagePreviews(account, store, previews, color);
  const [layoutCache] = useState(() => layoutCacheGiven ?? new LayoutCache());
  const open = useOpenView({
    store,
    version,
    account,
    ui,
    dispatch,
    paneHeight,
    width: size.mainWidth - 1,
    color,
    markdownReady,
    images,
    look: { colors: look.theme.body, key: look.key },
    expandKey: keymap.hint("msgExpand", EXPAND_KEY),
    cache: layoutCache,
    covered: popups.stack.length > 0,
  });

  // What features act with: the state as of a UI state (the latest, at key time: see uiRef), and actions made once.
  const latest = () => uiRef.current;
  const stateFor = contextBuilder({ store, account, ui, narrow: open.narrow, messages: open.messages, selectedIndex: open.selectedIndex, paneHeight, sidebarRows, latest, keymap, settings, orgs });
  const actions = useScreenActionsOf(account, {
    stateFor,
    latest,
    dispatch,
    openPopup: popups.open,
    organizations,
    compose,
    writeTerminal: (seq) => stdout.write(seq),
    quit: () => {
      onQuit?.();
      exit();
    },
  });
  const contextFor = (u: UiState): ActionContext | undefined => {
    const s = stateFor(u);
    return s && { ...s, ...actions };
  };
  const state = stateFor(ui);
  useAppKeys({ uiRef, dispatch, keymap, contextFor, compose, popupOpen: popups.stack.length > 0, quit: exit });
  // The mouse, when the reader turned it on and the app has the whole terminal (what is where on it is known).
  const hits = useMouse({ on: mouseOn({ ui, settings }) && usesAlternateScreen(), uiRef, dispatch, contextFor, popupOpen: popups.stack.length > 0, write: (s) => stdout.write(s) });
  const openKey = ui.view.kind === "screen" ? `view:${ui.view.id}` : open.narrow ? narrowKey(open.narrow) : undefined;
  useSidebarFollowsView(state && actions, store, openKey, sidebarRows);

  if (!store || !state) return <Connecting theme={look.theme} height={size.height} conn={conn} status={status} />;
  return withHitMap(hits, (
    <Screen
      theme={look.theme}
      state={state}
      actions={actions}
      size={size}
      sidebar={{
        rows: sidebarRows,
        cursor: ui.sidebar.filter !== null ? filterCursor(sidebarRows, ui.sidebar.filter, ui.sidebar.pick) : ui.sidebar.cursor,
        focused: ui.focus === "sidebar" && popups.stack.length === 0,
        openKey,
        rowKey: sidebarRowKey,
        filter: ui.sidebar.filter,
      }}
      main={<OpenView ui={ui} width={size.mainWidth} height={size.bodyHeight} paneHeight={paneHeight} open={open} editor={compose.editor.current} sending={compose.sending} />}
      popups={popups}
      status={status}
    />
  ));
}
