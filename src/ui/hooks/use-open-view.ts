/**
 * The open view's messages and what the account is told of them: the message
 * window (messages loaded, the selection, the blocks laid out), the messages
 * waiting to be sent there, who is typing, where the view landed, and the
 * report of what is on screen (the account keeps it loaded and marks read
 * what was seen).
 */
import { useEffect, useMemo, useState } from "react";
import type { Narrow } from "../../model/narrow.js";
import type { Store } from "../../model/store.js";
import { t } from "../../render/glyphs.js";
import type { AccountHandle } from "../../sync/account-handle.js";
import type { LayoutCache } from "../layout-cache.js";
import { currentNarrow, type UiAction } from "../ui-state.js";
import { messageRows } from "../views/MessagesView.js";
import { useLanding, useMessageWindow, type MessageWindowInput } from "./use-message-window.js";
import { useViewReport } from "./use-view-report.js";

export interface OpenViewInput extends Omit<MessageWindowInput, "narrow" | "account" | "cache"> {
  account: AccountHandle;
  dispatch: (a: UiAction) => void;
  cache: LayoutCache;
  /** A popup covers the pane. */
  covered: boolean;
}

export function useOpenView(o: OpenViewInput) {
  const { store, account, ui, dispatch, paneHeight } = o;
  const narrow = currentNarrow(ui);
  const window = useMessageWindow({ ...o, narrow, account: account.key });
  const { messages, list, selection, selectedIndex, selected, blocks, skip, settled } = window;
  const [outboxTick, setOutboxTick] = useState(0);
  useEffect(() => account.subscribe((c) => c.kind === "outbox" && setOutboxTick((n) => n + 1)), [account]);
  const pending = useMemo(() => (narrow ? account.pendingIn(narrow) : []), [account, narrow, outboxTick]);
  const typing = typingLine(store, narrow);
  // Read state is the server's: nothing is marked from the cache's copy, and a view is kept where it opened.
  const live = store !== undefined && !account.fromCache(store);
  useLanding(dispatch, { narrow, selection, list, messages, selectedIndex, live, onLanded: account.actions.keepPlace });
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
    covered: o.covered,
    settled,
  });
  const placeholder =
    list?.status === "fetching" || !list ? t("Loading…") : list.status === "error" ? `Could not load messages: ${list.error ?? ""}` : "No messages here yet.";
  return { ...window, narrow, pending, typing, placeholder, loadingMore: list?.status === "fetching" && messages.length > 0 };
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
