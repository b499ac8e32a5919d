/**
 * The people list (w): everyone in the organization with presence (active,
 * idle, offline) and status (emoji and text), a filter line, and keys to
 * open a direct-message conversation with someone (Enter) or see their
 * card (u). Only the rows that fit are rendered.
 */
import { Box, Text } from "ink";
import { useRef, type ReactNode } from "react";
import { userRows, type UserRow } from "../../model/selectors-views.js";
import { emojiByName } from "../../render/emoji.js";
import { emojiAsText, glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useScreenState } from "../contexts.js";
import { newListModel, useList, windowStart, type ListModel } from "../list/list-part.js";
import { usePresenceVersion } from "../hooks/use-store.js";
import { useTheme } from "../theme.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

/** The list's filter, its mode and its cursor: kept by whoever opened the list, so they outlast a card opened over it. */
export interface PeopleState {
  list: ListModel;
  editing: boolean;
  /** The person under the cursor, and where the cursor was then: it stays on them when presence reorders the list. */
  userId?: number;
  userAt?: number;
}

export function newPeopleState(): PeopleState {
  return { list: newListModel(), editing: false };
}

export interface PeopleProps {
  close: () => void;
  /** Where the list keeps its state (a popup over it unmounts it; closing that one brings it back as it was). */
  state?: PeopleState;
  /** Enter on a person. */
  onOpen: (row: UserRow) => void;
  /** u on a person. */
  onCard: (row: UserRow) => void;
  /** The clock for presence (tests pin it). */
  now?: () => number;
}

/** The status shown after a name: emoji (when known, and shown as pictures) and text, cleaned. */
export function statusLabel(row: UserRow): string {
  const emoji = row.statusEmoji ? ((emojiAsText() ? undefined : emojiByName(row.statusEmoji)) ?? `:${sanitizeInline(row.statusEmoji)}:`) : "";
  const text = sanitizeInline(row.statusText);
  return [emoji, text, row.away ? "(away)" : ""].filter(Boolean).join(" ");
}

/** A plain-text summary of a person (used when no user card is available). */
export function personSummary(ctx: ActionContext, row: UserRow): string {
  const u = ctx.store.users.get(row.userId);
  const parts = [sanitizeInline(row.name), u ? `<${sanitizeInline(u.email)}>` : "", row.presence];
  const status = statusLabel(row);
  if (status) parts.push(`status: ${status}`);
  if (u?.timezone) parts.push(sanitizeInline(u.timezone));
  return parts.filter(Boolean).join(t(" · "));
}

export function People({ close, state, onOpen, onCard, now = Date.now }: PeopleProps): ReactNode {
  const { store, keymap } = useScreenState();
  usePresenceVersion(store); // presence dots follow the server live
  const theme = useTheme();
  const { width, height } = usePopupSize();
  // The filter, its mode and the cursor live in one object changed in place, so keys that arrive in one
  // burst (w/omar typed ahead over a lagging link) each see what the key before them did.
  const own = useRef<PeopleState>(newPeopleState());
  const st = state ?? own.current;
  // Part of the list would leave people out: none until the whole user list is in.
  const rowsFor = () => (store.people.complete ? userRows(store, now(), { filter: st.list.filter.text || undefined }) : []);
  /** The cursor's row: the person it was on, when presence has reordered the list since. */
  const follow = (list: UserRow[]) => {
    if (st.userId === undefined || st.list.at !== st.userAt) return; // moved since: the move wins
    const person = list.findIndex((r) => r.userId === st.userId);
    if (person >= 0) st.list.at = st.userAt = person;
  };
  const room = Math.max(1, height - 5); // border (2), title, filter line, counts line
  const list = useList({
    scope: st.editing ? "popup.people.filter" : "popup.people",
    keymap,
    model: st.list,
    filter: st.editing,
    count: () => {
      const rowsNow = rowsFor();
      follow(rowsNow);
      return rowsNow.length;
    },
    page: room,
    onAction: (action, at) => {
      const row = rowsFor()[at];
      if (action === "people.close") close();
      else if (action === "people.filter") st.editing = true;
      else if (action === "peopleFilter.done") st.editing = false;
      else if ((action === "people.message" || action === "peopleFilter.message") && row) onOpen(row);
      else if (action === "people.card" && row) onCard(row);
      else return false;
      return true;
    },
    onFilter: () => (st.userId = undefined),
  });
  const rows = rowsFor();
  follow(rows);
  const at = list.at(rows.length);
  st.userId = rows[at]?.userId;
  st.userAt = at;
  const filter = st.list.filter.text;
  const editing = st.editing;
  const start = windowStart(at, rows.length, room);
  const visible = rows.slice(start, start + room);

  const active = rows.filter((r) => r.presence === "active").length;
  const inner = Math.max(10, width - 4);
  return (
    <Popup title="People" hint={editing ? "type to filter · ↑/↓ move · Enter message · Esc list" : "j/k move · Enter message · u card · / filter · Esc close"} width={width} height={height}>
      <Text wrap="truncate" inverse={editing}>
        {truncate(`/ ${filter}${editing ? glyphs().textCursor : ""}`, inner)}
      </Text>
      {visible.map((r, i) => {
        const index = start + i;
        const selected = index === at;
        const presenceColor = r.presence === "active" ? theme.ok : r.presence === "idle" ? theme.warn : undefined;
        const name = truncate(sanitizeInline(r.name) + (r.isSelf ? " (you)" : ""), Math.max(8, inner - 4));
        const status = statusLabel(r);
        const statusRoom = inner - 4 - displayWidth(name) - 2;
        return (
          <Box key={r.userId} flexShrink={0}>
            <Text wrap="truncate" inverse={selected}>
              <RowMark kind={selected ? "selected" : "none"} inverse={selected} />{" "}
              <Text color={selected ? undefined : presenceColor} dimColor={r.presence === "offline" && !selected}>
                {glyphs()[r.presence] + " "}
              </Text>
              <Text bold={selected} dimColor={r.presence === "offline" && !selected}>
                {name + (status && statusRoom > 3 ? "  " : "")}
              </Text>
              {status && statusRoom > 3 ? <Text dimColor={!selected}>{truncate(status, statusRoom)}</Text> : null}
            </Text>
          </Box>
        );
      })}
      {rows.length === 0 ? <Text dimColor>{!store.people.complete ? t`loading people…` : filter ? "Nobody matches." : "Nobody here."}</Text> : null}
      <Box flexGrow={1} />
      <Text dimColor wrap="truncate">
        {t`${rows.length} ${rows.length === 1 ? "person" : "people"} · ${active} active`}
      </Text>
    </Popup>
  );
}
