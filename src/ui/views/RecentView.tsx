/**
 * Recent conversations: every topic of a subscribed channel and every direct
 * message conversation, by last activity, read or not, with who took part,
 * the unread count and the muted and followed marks. It follows the store
 * live (a message moves its conversation to the top). Filters: typed text
 * (/), unread only (u), the channel of the row under the cursor (c), people
 * chosen by name (w), muted ones shown too (m); C clears them. Enter opens the conversation at its
 * first unread message. What the rows need is loaded as the service's own
 * recent view does: the newest messages first, older ones in batches as the
 * cursor goes down (model/recent-loading.ts), never the whole history.
 */
import { Box, Text } from "ink";
import { useEffect, useMemo, useReducer } from "react";
import { loadMoreRecent, recentLoadState, resetRecentLoad, rowsWithinLoaded, type RecentLoadState } from "../../model/recent-loading.js";
import { recentConversations, recentFilterComplete, type RecentFilter, type RecentRow } from "../../model/selectors-recent.js";
import type { Store } from "../../model/store.js";
import { glyphs, presentResolved, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { formatTime } from "../../render/time.js";
import { truncate } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useFeatureContext } from "../contexts.js";
import { useStoreVersion } from "../hooks/use-store.js";
import { newListModel, useList, type ListModel } from "../list/list-part.js";
import { PickRecipient } from "../popups/PickRecipient.js";
import { useTheme } from "../theme.js";
import type { ScreenProps } from "../screens.js";
import { ListLine, markConversationRead, useListCursor } from "./InboxView.js";

/** What the screen keeps per account while it is closed: its filters, and the loading of each store. */
interface RecentKept {
  filter: RecentFilter;
  /** Typing into the text filter (/). */
  typing: ListModel | undefined;
  loads: WeakMap<Store, RecentLoadState>;
}

const KEPT = Symbol("recent conversations");

export function recentKept(ctx: Pick<ActionContext, "account">): RecentKept {
  return ctx.account.keep(KEPT, () => ({ filter: {}, typing: undefined, loads: new WeakMap() }));
}

function loadsOf(kept: RecentKept, store: Store): RecentLoadState {
  let s = kept.loads.get(store);
  if (!s) kept.loads.set(store, (s = recentLoadState()));
  return s;
}

export type RecentListRow = RecentRow & { selectable: true };

/** The rows of a page big enough for the cursor and the screen below it. */
export function recentRows(store: Store, filter: RecentFilter, wanted: number): { rows: RecentListRow[]; more: boolean } {
  const page = recentConversations(store, filter, { limit: wanted });
  return { rows: page.rows.map((r) => ({ ...r, selectable: true as const })), more: page.more };
}

/** The filters in words, for the header. */
export function describeFilter(store: Store, f: RecentFilter): string {
  const parts: string[] = [];
  if (f.unreadOnly) parts.push("unread");
  if (f.includeMuted) parts.push("muted too");
  if (f.channelId !== undefined) parts.push(`#${sanitizeInline(store.channelName(f.channelId) ?? String(f.channelId))}`);
  if (f.participants?.length) parts.push(`with ${f.participants.map((id) => sanitizeInline(store.userName(id))).join(", ")}`);
  if (f.text) parts.push(`"${sanitizeInline(f.text)}"`);
  return parts.join(t(" · "));
}

/** Who took part, shortest first names, up to the room there is. */
function people(store: Store, row: RecentRow): string {
  const ids = row.participants.filter((id) => id !== store.selfId || row.participants.length === 1);
  return ids
    .slice(0, 4)
    .map((id) => sanitizeInline(store.userName(id)).split(" ")[0] ?? "")
    .join(", ") + (ids.length > 4 ? ` +${ids.length - 4}` : "");
}

export function RecentView({ width, height, focused }: ScreenProps) {
  const ctx = useFeatureContext();
  const theme = useTheme();
  const version = useStoreVersion(ctx.store);
  const kept = recentKept(ctx);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const filter: RecentFilter = kept.typing ? { ...kept.filter, text: kept.typing.filter.text } : kept.filter;
  const listHeight = Math.max(1, height - 2);
  const state = ctx.ui.lists.recent ?? {};
  // Enough rows for the cursor and a screen below it; more are loaded as it goes down.
  const wanted = (state.index ?? 0) + listHeight * 2;
  const { rows, more } = useMemo(() => recentRows(ctx.store, filter, wanted), [ctx.store, version, filter.text, filter.unreadOnly, filter.includeMuted, filter.channelId, filter.participants, wanted]);
  const load = loadsOf(kept, ctx.store);

  // Load while the rows shown (and a screen more) are not all within the loaded range.
  useEffect(() => {
    let live = true;
    const complete = recentFilterComplete(ctx.store, filter) ? wanted : rowsWithinLoaded(load, rows);
    void (async () => {
      for (let i = 0; i < 3 && live; i++) {
        const made = await ctx.account.actions.loadRecent(load, { wanted, complete: i === 0 ? complete : rowsWithinLoaded(load, recentRows(ctx.store, filter, wanted).rows) });
        if (made !== true) break;
        if (live) redraw();
      }
    })();
    return () => {
      live = false;
    };
  }, [ctx.store, wanted, filter.text, filter.unreadOnly, filter.channelId, filter.participants]);

  const setFilter = (f: RecentFilter) => {
    kept.filter = f;
    ctx.dispatch({ type: "list", view: "recent", state: { cursor: undefined, index: 0 } });
    redraw();
  };
  const { cursor, start, visible } = useListCursor("recent", rows, listHeight, {
    active: focused && ctx.ui.focus === "messages" && !kept.typing,
    scope: "screen.recent",
    onOpen: (row) => ctx.openNarrow(row.narrow, { focus: "messages", select: ctx.store.firstUnreadIn(row.narrow) }),
    onMarkRead: (row) => markConversationRead(ctx, row.narrow),
    onAction: (action, row) => {
      const f = kept.filter;
      if (action === "recent.unread") setFilter({ ...f, unreadOnly: !f.unreadOnly });
      else if (action === "recent.muted") setFilter({ ...f, includeMuted: !f.includeMuted });
      else if (action === "recent.channel") setFilter({ ...f, channelId: f.channelId === undefined ? row?.channelId : undefined });
      else if (action === "recent.clear") setFilter({});
      else if (action === "recent.type") {
        kept.typing = newListModel();
        kept.typing.filter = { text: f.text ?? "", cursor: (f.text ?? "").length };
        redraw();
      } else if (action === "recent.people") {
        ctx.openPopup((close) => (
          <PickRecipient mode="people" title="Conversations with…" close={close} onPick={(ids) => setFilter({ ...kept.filter, participants: ids })} />
        ));
      } else if (action === "recent.more") {
        loadMoreRecent(load);
        if (load.error !== undefined) resetRecentLoad(load);
        redraw();
        ctx.dispatch({ type: "list", view: "recent", state: { index: state.index ?? 0 } });
      } else return false;
      return true;
    },
  });
  const g = glyphs();
  const described = describeFilter(ctx.store, filter);
  const loading = load.inFlight ? t("loading…") : load.error !== undefined ? `could not load: ${sanitizeInline(load.error)} (L again)` : more || load.foundOldest ? "" : load.loaded >= load.budget ? "L loads older ones" : "";
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0}>
      <Text wrap="truncate">
        <Text bold>Recent conversations</Text>
        <Text dimColor>{t`  ${described ? described + " · " : ""}/ filter · u unread · c channel · w people · m muted · C clear${loading ? " · " + loading : ""}`}</Text>
      </Text>
      {kept.typing ? (
        <RecentTyping kept={kept} onDone={() => redraw()} onChange={() => ctx.dispatch({ type: "list", view: "recent", state: { cursor: undefined, index: 0 } })} width={width} />
      ) : (
        <Text dimColor wrap="truncate">
          {rows.length === 0 ? (described ? "No conversation matches." : load.inFlight ? t("Loading…") : "No conversations yet.") : " "}
        </Text>
      )}
      {visible.map((row, i) => {
        const where =
          row.kind === "topic"
            ? `#${truncate(sanitizeInline(row.channelName ?? ""), 18)} ${g.prompt} ${presentResolved(sanitizeInline(row.topicDisplay ?? ""))}`
            : `@ ${row.participants.filter((id) => id !== ctx.store.selfId || row.participants.length === 1).map((id) => sanitizeInline(ctx.store.userName(id))).join(", ")}`;
        const marks = `${row.muted ? ` ${g.muted}` : ""}${row.followed ? ` ${g.star}` : ""}`;
        const when = row.timestamp !== undefined ? formatTime(row.timestamp) : "";
        const who = row.kind === "topic" ? people(ctx.store, row) : "";
        return (
          <ListLine
            key={row.key}
            width={width}
            selected={start + i === cursor}
            focused={focused}
            theme={theme}
            prefix=""
            prefixColor={theme.channel(row.color, "mark")}
            text={where}
            suffix={`${marks}${who ? "  " + who : ""}${when ? "  " + when : ""}`}
            count={row.unread}
            mention={row.mentioned}
            bold={row.unread > 0}
            dim={row.muted}
          />
        );
      })}
    </Box>
  );
}

/** The text filter being typed (/): letters filter, Enter or Esc goes back to the list keeping it. */
function RecentTyping({ kept, onDone, onChange, width }: { kept: RecentKept; onDone: () => void; onChange: () => void; width: number }) {
  const ctx = useFeatureContext();
  const model = kept.typing!;
  useRecentTypingKeys(ctx, kept, onDone, onChange);
  return (
    <Text wrap="truncate" inverse>
      {truncate(`/ ${model.filter.text}${glyphs().textCursor}`, Math.max(4, width - 1))}
    </Text>
  );
}

function useRecentTypingKeys(ctx: ActionContext, kept: RecentKept, onDone: () => void, onChange: () => void): void {
  const model = kept.typing!;
  useList({
    scope: "screen.recent.filter",
    keymap: ctx.keymap,
    model,
    filter: true,
    count: () => 1,
    page: 1,
    priority: 10,
    modal: false,
    onAction: (action) => {
      if (action !== "recentFilter.done") return false;
      kept.filter = { ...kept.filter, text: model.filter.text.trim() || undefined };
      kept.typing = undefined;
      onDone();
      return true;
    },
    onFilter: onChange,
  });
}
