/**
 * The open narrow's message window: its loaded messages, the selected one
 * (the chosen message; else the first unread; else the newest, following new
 * ones), the blocks laid out around it for the pane, and which shown ones are unread.
 */
import { useMemo, useRef } from "react";
import type { Message } from "../../api/schemas/common.js";
import { narrowKey, type Narrow } from "../../model/narrow.js";
import { narrowMessages } from "../../model/selectors.js";
import type { Store } from "../../model/store.js";
import type { BodyColors } from "../../render/markdown.js";
import { renderContext, type LayoutOptions } from "../message-layout.js";
import { searchHighlighter } from "../search-highlight.js";
import { layoutStickyWindow, type WindowTop } from "../sticky-window.js";
import { selectionOf, type Selection, type UiState } from "../ui-state.js";

export interface MessageWindowInput {
  store: Store | undefined;
  version: number;
  narrow: Narrow | undefined;
  ui: UiState;
  paneHeight: number;
  /** Columns for message text. */
  width: number;
  color: boolean;
  /** Bodies are laid out again once the Markdown engine is ready. */
  markdownReady: boolean;
  /** Image previews (images/use-image-previews.ts); none when off. */
  images?: LayoutOptions["images"];
  /** The theme's colours for bodies, and a key of the glyphs in use: laid out again when either changes. */
  look?: { colors: BodyColors; key: string };
}

export function useMessageWindow({ store, version, narrow, ui, paneHeight, width, color, markdownReady, images, look }: MessageWindowInput) {
  const messages = useMemo(() => (store && narrow ? narrowMessages(store, narrow) : []), [store, version, narrow]);
  const list = store && narrow ? store.messages.list(narrow) : undefined;
  const selectedIndex = selectionIndex(store, messages, narrow ? selectionOf(ui, narrow) : { follow: true, initial: true });
  const selected: Message | undefined = messages[selectedIndex];
  const ctxRender = useMemo(() => (store ? { ...renderContext(store, color), ...(look && { colors: look.colors }) } : undefined), [store, color, look?.colors, look?.key]);
  // Where the pane's window starts, kept from frame to frame while the same narrow is open.
  const shown = useRef<{ key: string; top: WindowTop | undefined }>({ key: "", top: undefined });
  const { blocks, skip } = useMemo(() => {
    if (!store || !ctxRender || !narrow) return { blocks: [], skip: 0 };
    const key = narrowKey(narrow);
    const previous = shown.current.key === key ? shown.current.top : undefined;
    const options = { width, showRecipients: narrow.kind !== "topic" && narrow.kind !== "dm", color, highlight: searchHighlighter(store, narrow), openSpoilers: ui.openSpoilers, images };
    const window = layoutStickyWindow(store, messages, selectedIndex, paneHeight, options, ctxRender, previous);
    shown.current = { key, top: window.top };
    return window;
  }, [store, ctxRender, messages, selectedIndex, paneHeight, width, narrow, color, version, markdownReady, ui.openSpoilers, images]);
  const unreadShown = useMemo(() => new Set(blocks.map((b) => b.id).filter((id) => store?.unreads.has(id))), [blocks, store, version]);
  return { messages, list, selectedIndex, selected, blocks, skip, unreadShown };
}

/** Which message is selected: the chosen one; else the first unread; else the newest (following new ones). */
export function selectionIndex(store: Store | undefined, messages: Message[], sel: Selection): number {
  let index = messages.findIndex((m) => m.id === sel.id);
  if (index === -1 || sel.follow) {
    const firstUnread = sel.initial ? messages.findIndex((m) => store?.unreads.has(m.id)) : -1;
    index = firstUnread >= 0 ? firstUnread : messages.length - 1;
  }
  return index;
}

