/**
 * The screen's layout: the sidebar beside the open view (or a popup over it),
 * the status line below; before the first store, a line saying it is
 * connecting (or why it could not).
 */
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { ConnectionState } from "../../sync/account-handle.js";
import { ActionsProvider, StateProvider, type ScreenActions, type ScreenState } from "../contexts.js";
import { PopupHost, type usePopupStack } from "../popups/PopupHost.js";
import { sidebarWidth, type SidebarRow } from "../sidebar-rows.js";
import { usesAlternateScreen } from "../terminal/screen-mode.js";
import { ThemeContext, type Theme } from "../theme.js";
import { Sidebar, type SidebarProps } from "./Sidebar.js";
import { StatusLine, type StatusLineProps } from "./StatusLine.js";

/** A message pane narrower than this gives popups the whole width of the terminal. */
const POPUP_MIN_WIDTH = 50;

export interface ScreenSize {
  /** Rows the app takes, and those above the status line. */
  height: number;
  bodyHeight: number;
  columns: number;
  sidebarWidth: number;
  mainWidth: number;
}

/** How the terminal's size is shared out: the whole terminal on the alternate screen; else one row short of it (a full-height frame there would scroll). */
export function screenSize(columns: number, rows: number, statusRows: number): ScreenSize {
  const sidebar = sidebarWidth(columns);
  const height = Math.max(6, usesAlternateScreen() ? rows : rows - 1);
  return { height, bodyHeight: height - statusRows, columns, sidebarWidth: sidebar, mainWidth: Math.max(20, columns - sidebar - 1) };
}

export interface ScreenProps {
  theme: Theme;
  state: ScreenState;
  actions: ScreenActions;
  size: ScreenSize;
  sidebar: Omit<SidebarProps, "width" | "height" | "rows"> & { rows: SidebarRow[] };
  /** The open view (messages, the Inbox, followed topics). */
  main: ReactNode;
  popups: ReturnType<typeof usePopupStack>;
  status: StatusLineProps;
}

export function Screen({ theme, state, actions, size, sidebar, main, popups, status }: ScreenProps) {
  const { height, bodyHeight, columns, sidebarWidth, mainWidth } = size;
  // Beside the sidebar a narrow terminal leaves popups too little room: they take the whole width.
  const popupHost = popups.stack.length ? (
    <PopupHost stack={popups.stack} onClose={popups.closeTop} width={mainWidth < POPUP_MIN_WIDTH ? columns : mainWidth} height={bodyHeight} />
  ) : null;
  return (
    <ThemeContext.Provider value={theme}>
      <ActionsProvider actions={actions}>
        <Box flexDirection="column" height={height}>
          <Box flexDirection="row" height={bodyHeight}>
            {popupHost && mainWidth < POPUP_MIN_WIDTH ? (
              <StateProvider state={state}>{popupHost}</StateProvider>
            ) : (
              <>
                <Sidebar {...sidebar} width={sidebarWidth} height={bodyHeight} />
                <Box flexDirection="column" width={mainWidth} marginLeft={1} flexShrink={0}>
                  <StateProvider state={state}>{popupHost ?? main}</StateProvider>
                </Box>
              </>
            )}
          </Box>
          <StatusLine {...status} />
        </Box>
      </ActionsProvider>
    </ThemeContext.Provider>
  );
}

/** Before the first store: connecting, or why the start failed. */
export function Connecting({ theme, height, conn, status }: { theme: Theme; height: number; conn: ConnectionState; status: StatusLineProps }) {
  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" height={height}>
        <Box flexGrow={1}>
          <Text>{conn.kind === "failed" ? `Could not start: ${sanitizeInline(conn.error)}` : t("Connecting…")}</Text>
        </Box>
        <StatusLine {...status} />
      </Box>
    </ThemeContext.Provider>
  );
}
