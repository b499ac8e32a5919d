/**
 * The screen: sidebar | the open view (messages or inbox), popups over it,
 * and a status line. UI state lives in a reducer (ui-state.ts) and survives
 * store rebuilds; keys go through the keymap to the features' actions.
 */
import { Box, Text, useApp, useStdout } from "ink";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { narrowKey, type Narrow } from "../model/narrow.js";
import { VIEW_ORDER } from "../model/selectors-views.js";
import type { Store } from "../model/store.js";
import { DEFAULT_SETTINGS, type Settings } from "../config/settings.js";
import { t } from "../render/glyphs.js";
import { sanitizeInline } from "../render/sanitize.js";
import type { AccountHandle } from "../sync/account-handle.js";
import { ScreenProvider } from "./contexts.js";
import { contextBuilder } from "./context-builder.js";
import { useAppKeys } from "./hooks/use-app-keys.js";
import { Sidebar } from "./components/Sidebar.js";
import { StatusLine, statusRows } from "./components/StatusLine.js";
import { FEATURES } from "./features/index.js";
import { composeRows, useCompose } from "./hooks/use-compose.js";
import { composeTextWidth } from "./compose-wrap.js";
import { noteSequence } from "./notifications.js";
import { useLanding, useMessageWindow } from "./hooks/use-message-window.js";
import { useMoveFollow } from "./hooks/use-move-follow.js";
import { useFirstFrame } from "./hooks/use-first-frame.js";
import { useAccountNotices, useAccountStore } from "./hooks/use-account.js";
import { useSidebarFollowsView } from "./hooks/use-sidebar-follow.js";
import { useImagePreviews } from "./images/use-image-previews.js";
import { useViewReport } from "./hooks/use-view-report.js";
import { useStoreVersion } from "./hooks/use-store.js";
import { useTerminalSize } from "./hooks/use-terminal-size.js";
import { usesAlternateScreen } from "./terminal/screen-mode.js";
import { Keymap } from "./keymap.js";
import { PopupHost, usePopupStack } from "./popups/PopupHost.js";
import { buildSidebarRows, filterCursor, sidebarRowKey, sidebarWidth } from "./sidebar-rows.js";
import { ThemeContext } from "./theme.js";
import { useLook } from "./hooks/use-look.js";
import { drawnByTerminal, terminalGraphics } from "./images/graphics.js";
import { LayoutCache } from "./message-layout.js";
import { INITIAL_UI, currentNarrow, homeView, uiReducer, type UiAction, type UiState } from "./ui-state.js";
import { MessagesView, messageRows } from "./views/MessagesView.js";
import { InboxView } from "./views/InboxView.js";
import { FollowedView } from "./views/FollowedView.js";

/** A message pane narrower than this gives popups the whole width of the terminal. */
const POPUP_MIN_WIDTH = 50;

export interface AppProps {
  /** The account on screen. */
  account: AccountHandle;
  settings?: Settings;
  keymap?: Keymap;
  color?: boolean;
  onQuit?: () => void;
  /** Called once, after the first frame that shows the organization (start-up measurements). */
  onFirstFrame?: () => void;
  /** A notice for the status line at start (the demo's organization is in memory only; TLS verification turned off). */
  startNotice?: string;
}

export function defaultKeymap(settings: Settings = DEFAULT_SETTINGS): { keymap: Keymap; problems: string[] } {
  return Keymap.withOverrides(
    FEATURES.flatMap((f) => f.bindings),
    settings.keys,
  );
}

function withKeyProblems(ui: UiState, problems: string[]): UiState {
  if (problems.length === 0) return ui;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more key settings problem${problems.length > 2 ? "s" : ""})` : "";
  return uiReducer(ui, { type: "notice", text: problems[0] + more, kind: "error" });
}

export function App({ account, settings = DEFAULT_SETTINGS, keymap: keymapProp, color = true, onQuit, onFirstFrame, startNotice }: AppProps) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize();
  const SIDEBAR_WIDTH = sidebarWidth(columns);
  const [outboxTick, setOutboxTick] = useState(0);
  useEffect(() => account.subscribe((c) => c.kind === "outbox" && setOutboxTick((t) => t + 1)), [account]);

  const { keymap, problems: keyProblems } = useMemo(() => (keymapProp ? { keymap: keymapProp, problems: [] } : defaultKeymap(settings)), [keymapProp, settings]);
  // UI state is mirrored in a ref updated synchronously: keys that arrive in one burst
  // (before React re-renders) each see the state the previous key left. The first screen
  // with data is the user's home view (the Inbox unless they chose the combined feed).
  // Key settings that could not be applied are said on the first screen.
  const [initialUi] = useState(() => {
    const first = account.store();
    return withKeyProblems(first ? cachedView(uiReducer(INITIAL_UI, homeAction(first, settings)), account, first) : INITIAL_UI, keyProblems);
  });
  const uiRef = useRef<UiState>(initialUi);
  const [ui, setUi] = useState<UiState>(initialUi);
  const dispatch = useCallback((a: UiAction) => {
    uiRef.current = uiReducer(uiRef.current, a);
    setUi(uiRef.current);
  }, []);
  // The home view and the store arrive in one render.
  const { store, conn } = useAccountStore(account, (s) => dispatch(homeAction(s, settings)));
  const version = useStoreVersion(store);
  // The account's notices go to the status line; its notifications to the terminal, as the settings say.
  useAccountNotices(account, {
    notice: (n) => dispatch({ type: "notice", text: n.text, kind: n.kind }),
    notify: (note) => {
      const seq = noteSequence(note, settings.notifications);
      if (seq) stdout.write(seq);
    },
  });
  useEffect(() => {
    if (startNotice) dispatch({ type: "notice", text: startNotice, kind: "error" });
  }, [startNotice, dispatch]);
  const look = useLook(settings, ui.theme, color);
  const theme = look.theme;
  const popups = usePopupStack();

  // The whole terminal on the alternate screen; else one row short of it (a full-height frame there would scroll).
  const height = Math.max(6, usesAlternateScreen() ? rows : rows - 1);
  const mainWidth = Math.max(20, columns - SIDEBAR_WIDTH - 1);
  // A long notice takes up to three rows of the status line, until the next key clears it.
  const statusProps = { state: conn, organization: store?.realm.name ?? "", user: store ? store.userName(store.selfId) : account.email, notice: store ? ui.notice?.text : undefined, cached: account.fromCache(store), width: columns };
  const bodyHeight = height - statusRows(statusProps);
  const narrow = currentNarrow(ui);
  const compose = useCompose({
    store,
    account,
    compose: ui.compose,
    dispatch,
    textWidth: composeTextWidth(mainWidth),
    onSent: () => dispatch({ type: "select", id: undefined, follow: true }),
  });
  const composeRef = useRef(compose);
  composeRef.current = compose;
  // Messages moved (by anyone): the view follows its topic, the compose box its recipient.
  useMoveFollow(
    account,
    uiRef,
    dispatch,
    (target, text) => composeRef.current.open(target, { initialText: text }),
    () => composeRef.current.editor.current.text,
  );
  const composeLines = composeRows(ui.compose, compose.editor.current, composeTextWidth(mainWidth));
  const paneHeight = Math.max(3, bodyHeight - 1 - composeLines);

  const markdownReady = useFirstFrame(store, onFirstFrame);

  const sidebarRows = useMemo(
    () => (store ? buildSidebarRows(store, { expanded: ui.sidebar.expanded, filter: ui.sidebar.filter, collapsedFolders: ui.sidebar.collapsedFolders }) : []),
    [store, version, ui.sidebar.expanded, ui.sidebar.filter, ui.sidebar.collapsedFolders],
  );
  // Half-block images are Unicode: with ASCII glyphs only a terminal's own graphics can show them.
  const previews = settings.imagePreviews && (!look.ascii || drawnByTerminal(terminalGraphics().mode));
  const { images } = useImagePreviews(account, store, previews, color);
  const [layoutCache] = useState(() => new LayoutCache());
  const { messages, list, selection, selectedIndex, selected, blocks, skip, unreadShown, settled } = useMessageWindow({
    store,
    version,
    narrow,
    ui,
    paneHeight,
    width: mainWidth - 1,
    color,
    markdownReady,
    images,
    look: { colors: theme.body, key: look.key },
    account: account.key,
    cache: layoutCache,
  });
  const pending = useMemo(() => (narrow ? account.pendingIn(narrow) : []), [account, narrow, outboxTick]);
  const typing = typingLine(store, narrow);
  // Read state is the server's: nothing is marked from the cache's copy, and a view is kept where it opened.
  const live = store !== undefined && !account.fromCache(store);
  useLanding(dispatch, { narrow, selection, list, messages, selectedIndex, live, onLanded: account.actions.keepPlace });
  // What is on screen: the account keeps it loaded and marks read what was seen.
  useViewReport(account.view.set, {
    narrow,
    focus: ui.focus,
    expandedChannel: ui.sidebar.expanded,
    filtering: ui.sidebar.filter !== null,
    selectedIndex,
    count: messages.length,
    blocks,
    skip,
    selectedId: selected?.id,
    rows: messageRows(paneHeight, pending.length, typing !== undefined),
    covered: popups.stack.length > 0,
    settled,
  });

  /** The context for actions; at key time it is built from the latest UI state (see uiRef). */
  const contextFor = contextBuilder({
    store,
    account,
    ui,
    narrow,
    messages,
    selectedIndex,
    paneHeight,
    sidebarRows,
    latest: () => uiRef.current,
    dispatch,
    keymap,
    settings,
    openPopup: popups.open,
    compose,
    writeTerminal: (seq) => stdout.write(seq),
    quit: () => {
      onQuit?.();
      exit();
    },
  });
  const ctx = contextFor(ui);
  useAppKeys({ uiRef, dispatch, keymap, contextFor, compose, popupOpen: popups.stack.length > 0, quit: exit });
  const openKey = ui.view.kind !== "narrow" ? `view:${ui.view.kind}` : narrow ? narrowKey(narrow) : undefined;
  useSidebarFollowsView(ctx, openKey, sidebarRows);

  if (!store || !ctx) {
    return (
      <ThemeContext.Provider value={theme}>
        <Box flexDirection="column" height={height}>
          <Box flexGrow={1}>
            <Text>{conn.kind === "failed" ? `Could not start: ${sanitizeInline(conn.error)}` : t("Connecting…")}</Text>
          </Box>
          <StatusLine {...statusProps} />
        </Box>
      </ThemeContext.Provider>
    );
  }

  const placeholder =
    list?.status === "fetching" || !list ? t("Loading…") : list.status === "error" ? `Could not load messages: ${list.error ?? ""}` : "No messages here yet.";
  const view =
    ui.view.kind === "inbox" ? (
      <InboxView width={mainWidth} height={bodyHeight} focused={ui.focus !== "sidebar"} />
    ) : ui.view.kind === "followed" ? (
      <FollowedView width={mainWidth} height={bodyHeight} focused={ui.focus !== "sidebar"} />
    ) : narrow ? (
      <MessagesView
        narrow={narrow}
        blocks={blocks}
        skip={skip}
        selectedId={selected?.id}
        unread={unreadShown}
        pending={pending}
        width={mainWidth}
        paneHeight={paneHeight}
        focused={ui.focus === "messages"}
        compose={ui.compose}
        editor={compose.editor.current}
        sending={compose.sending}
        placeholder={placeholder}
        loadingMore={list?.status === "fetching" && messages.length > 0}
        typing={typing}
      />
    ) : null;
  // Beside the sidebar a narrow terminal leaves popups too little room: they take the whole width.
  const popupHost = popups.stack.length ? (
    <PopupHost stack={popups.stack} onClose={() => popups.closeTop()} width={mainWidth < POPUP_MIN_WIDTH ? columns : mainWidth} height={bodyHeight} />
  ) : null;
  return (
    <ThemeContext.Provider value={theme}>
      <ScreenProvider ctx={ctx}>
        <Box flexDirection="column" height={height}>
          <Box flexDirection="row" height={bodyHeight}>
            {popupHost && mainWidth < POPUP_MIN_WIDTH ? (
              popupHost
            ) : (
              <>
                <Sidebar
                  rows={sidebarRows}
                  cursor={ui.sidebar.filter !== null ? filterCursor(sidebarRows, ui.sidebar.filter, ui.sidebar.pick) : ui.sidebar.cursor}
                  width={SIDEBAR_WIDTH}
                  height={bodyHeight}
                  focused={ui.focus === "sidebar" && popups.stack.length === 0}
                  openKey={openKey}
                  rowKey={sidebarRowKey}
                  filter={ui.sidebar.filter}
                />
                <Box flexDirection="column" width={mainWidth} marginLeft={1} flexShrink={0}>
                  {popupHost ?? view}
                </Box>
              </>
            )}
          </Box>
          <StatusLine {...statusProps} />
        </Box>
      </ScreenProvider>
    </ThemeContext.Provider>
  );
}

/** Who is typing in the open conversation, in a line; undefined when nobody is. */
function typingLine(store: Store | undefined, narrow: Narrow | undefined): string | undefined {
  if (!store) return undefined;
  const typingNames =
    narrow?.kind === "topic"
      ? store.typistsIn({ channelId: narrow.channelId, topic: narrow.topic })
      : narrow?.kind === "dm"
        ? store.typistsIn({ userIds: narrow.userIds })
        : [];
  return typingNames.length ? t`${typingNames.map((id) => store.userName(id)).join(", ")} ${typingNames.length > 1 ? "are" : "is"} typing…` : undefined;
}

/** A start from the local cache opens the narrow that was open when it was written. */
function cachedView(ui: UiState, account: AccountHandle, store: Store): UiState {
  const n = account.startNarrow;
  return n && account.fromCache(store) ? uiReducer(ui, { type: "open", narrow: n, focus: "messages" }) : ui;
}

/** Opens the user's home view, with the sidebar's cursor on its row (the views are the first rows). */
function homeAction(store: Store, settings: Settings): UiAction {
  const home = homeView(store, settings.startView);
  return { type: "home", home, cursor: Math.max(0, VIEW_ORDER.indexOf(home)) };
}
