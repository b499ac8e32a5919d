/**
 * The open narrow's message window: its loaded messages, the selected one
 * (the chosen message; else where the view opens: its first unread, or its
 * newest following new ones), the blocks laid out around it for the pane, and
 * which of them are unread.
 */
import { useEffect, useMemo, useRef } from "react";
import type { Message } from "../../api/schemas/common.js";
import { narrowKey, type Narrow } from "../../model/narrow.js";
import { opensAtFirstUnread } from "../../model/read-policy.js";
import { narrowMessages } from "../../model/selectors.js";
import type { MessageList } from "../../model/messages.js";
import type { Store } from "../../model/store.js";
import type { BodyColors } from "../../render/markdown.js";
import type { LayoutCache } from "../layout-cache.js";
import { layAhead } from "../lay-ahead.js";
import { plainRowText } from "../components/MessagePane.js";
import { prepareCells } from "../ink-frame/output.js";
import { renderContext, type Block, type LayoutOptions } from "../message-layout.js";
import { searchHighlighter } from "../search-highlight.js";
import { BlockMemo } from "../block-memo.js";
import { layoutStickyWindow, type WindowTop } from "../sticky-window.js";
import { selectionOf, type Selection, type UiAction, type UiState } from "../ui-state.js";

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
  /** The key that shows a condensed message whole, as the keymap has it (its note names it). */
  expandKey?: string;
  /** Whose store it is (the account's key), and where laid-out messages are kept. */
  account?: string;
  cache?: LayoutCache;
}

export function useMessageWindow({ store, version, narrow, ui, paneHeight, width, color, markdownReady, images, look, expandKey, account, cache }: MessageWindowInput) {
  const messages = useMemo(() => (store && narrow ? narrowMessages(store, narrow) : []), [store, version, narrow]);
  const list = store && narrow ? store.messages.list(narrow) : undefined;
  const selection = narrow ? selectionOf(ui, narrow) : { follow: true, initial: true };
  const selectedIndex = selectionIndex(store, messages, selection, narrow);
  const selected: Message | undefined = messages[selectedIndex];
  // A new context when names may have changed (a person or channel renamed): bodies show the new ones at once.
  const names = store?.namesVersion;
  const ctxRender = useMemo(
    () => (store ? { ...renderContext(store, color, undefined, undefined, account), ...(look && { colors: look.colors }) } : undefined),
    [store, names, account, color, look?.colors, look?.key],
  );
  // Where the pane's window starts, kept from frame to frame while the same narrow is open.
  const shown = useRef<{ key: string; top: WindowTop | undefined }>({ key: "", top: undefined });
  // The blocks laid out for earlier frames, taken again while nothing they show changed (block-memo.ts).
  const memo = useRef<BlockMemo | null>(null);
  memo.current ??= new BlockMemo();
  // The narrow's key: the scope of the memo's blocks, for the frames and for the blocks laid out ahead alike.
  const scope = narrow ? narrowKey(narrow) : "";
  const options = useMemo<LayoutOptions | undefined>(
    () =>
      store && narrow
        ? { width, showRecipients: narrow.kind !== "topic" && narrow.kind !== "dm", color, highlight: searchHighlighter(store, narrow), openSpoilers: ui.openSpoilers, expanded: ui.expanded, expandKey, images, cache }
        : undefined,
    [store, narrow, width, color, version, ui.openSpoilers, ui.expanded, expandKey, images, cache],
  );
  const { blocks, skip } = useMemo(() => {
    if (!store || !ctxRender || !narrow || !options) return { blocks: [], skip: 0 };
    const previous = shown.current.key === scope ? shown.current.top : undefined;
    memo.current!.use(store, options, ctxRender, scope);
    const window = layoutStickyWindow(store, messages, selectedIndex, paneHeight, options, ctxRender, previous, memo.current!);
    shown.current = { key: scope, top: window.top };
    return window;
  }, [store, ctxRender, messages, selectedIndex, paneHeight, options, narrow, scope, markdownReady]);
  // Once the frame is out, the pages above and below are laid out while the terminal is idle (lay-ahead.ts).
  const firstId = blocks[0]?.id;
  const lastId = blocks.at(-1)?.id;
  useEffect(() => {
    if (!store || !ctxRender || !options || firstId === undefined || lastId === undefined) return;
    // Each block laid out ahead goes to the memo, and its plain rows' cells are parsed at idle too.
    const keep = (m: Message, prev: Message | undefined, block: Block) => {
      memo.current!.offer(store, options, ctxRender, scope, m, prev, block);
      for (const line of block.lines) {
        const text = plainRowText(line);
        if (text !== undefined) prepareCells(text);
      }
    };
    const job = layAhead(store, messages, indexOfId(messages, firstId), indexOfId(messages, lastId), paneHeight, options, ctxRender, keep);
    return () => job.cancel();
  }, [store, ctxRender, options, messages, firstId, lastId, paneHeight, markdownReady, scope]);
  const unreadShown = useMemo(() => new Set(blocks.map((b) => b.id).filter((id) => store?.unreads.has(id))), [blocks, store, version]);
  // Where the reader asked to be: the place the view opened at is kept (see useLanding), and a
  // view on its way to the newest message has not reached it while newer ones are still loading.
  const settled = !selection.initial && !(selection.follow && list !== undefined && !list.foundNewest);
  return { messages, list, selection, selectedIndex, selected, blocks, skip, unreadShown, settled };
}

/**
 * Which message is selected: the chosen one; else, in a view just opened, its first unread
 * message when the view opens there (read-policy.ts); else the newest (following new ones).
 */
export function selectionIndex(store: Store | undefined, messages: Message[], sel: Selection, narrow?: Narrow): number {
  let index = sel.id === undefined ? -1 : indexOfId(messages, sel.id);
  if (index === -1 || sel.follow) {
    const atUnread = sel.initial && (!narrow || opensAtFirstUnread(narrow));
    const firstUnread = atUnread ? messages.findIndex((m) => store?.unreads.has(m.id)) : -1;
    index = firstUnread >= 0 ? firstUnread : messages.length - 1;
  }
  return index;
}

/**
 * Where message `id` is in a narrow's messages: they come in id order (the list's ids are kept
 * sorted), so by halving — on every key, a scan of a big list was a good part of the key's work.
 * Should the order ever not hold, the scan still finds it.
 */
export function indexOfId(messages: Message[], id: number): number {
  let lo = 0;
  let hi = messages.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = messages[mid]!.id;
    if (at === id) return mid;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return messages.findIndex((m) => m.id === id);
}

/**
 * Keeps the place a view opened at once its messages are in: without it the first unread
 * message, which reading moves on, would move the view along with it, and each screen read
 * would bring the next. Only from the server's state (not the local cache's), and only while
 * nothing was chosen yet. Opened at its newest message, the view follows new ones.
 */
export function useLanding(
  dispatch: (a: UiAction) => void,
  o: {
    narrow: Narrow | undefined;
    selection: Selection;
    list: MessageList | undefined;
    messages: Message[];
    selectedIndex: number;
    live: boolean;
    /** Told where the view landed (a rebuild refetches the narrow around it: see UpdateMachine.setAnchor). */
    onLanded?: (narrow: Narrow, id: number) => void;
  },
): void {
  const { narrow, selection, list, messages, selectedIndex, live, onLanded } = o;
  const landing = messages[selectedIndex];
  const ready = narrow !== undefined && selection.initial === true && live && list !== undefined && list.status !== "fetching" && landing !== undefined;
  const follow = selectedIndex >= messages.length - 1 && list?.foundNewest === true;
  useEffect(() => {
    if (!ready) return;
    dispatch({ type: "land", key: narrowKey(narrow), id: landing.id, follow });
    onLanded?.(narrow, landing.id);
  }, [ready, narrow, landing, follow, dispatch, onLanded]);
}
