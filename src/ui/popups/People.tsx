/**
 * The people list (w): everyone in the organization with presence (active,
 * idle, offline) and status (emoji and text), a filter line, and keys to
 * open a direct-message conversation with someone (Enter) or see their
 * card (u). Only the rows that fit are rendered.
 */
import { Box, Text } from "ink";
import { useReducer, useRef, type ReactNode } from "react";
import { userRows, type UserRow } from "../../model/selectors-views.js";
import { emojiByName } from "../../render/emoji.js";
import { emojiAsText, glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useScreenState } from "../contexts.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { typedText } from "../keys.js";
import { usePresenceVersion } from "../hooks/use-store.js";
import { useTheme } from "../theme.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

/** The list's filter, its mode and its cursor: kept by whoever opened the list, so they outlast a card opened over it. */
export interface PeopleState {
  filter: string;
  editing: boolean;
  cursor: number;
  /** The person under the cursor: the cursor stays on them when presence reorders the list. */
  userId?: number;
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
  const own = useRef<PeopleState>({ filter: "", editing: false, cursor: 0 });
  const st = state ?? own.current;
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  // Part of the list would leave people out: none until the whole user list is in.
  const rowsFor = () => (store.people.complete ? userRows(store, now(), { filter: st.filter || undefined }) : []);
  const rows = rowsFor();
  const filter = st.filter;
  const editing = st.editing;
  const clampAt = (list: UserRow[]) => {
    const person = st.userId === undefined ? -1 : list.findIndex((r) => r.userId === st.userId);
    return person >= 0 ? person : Math.max(0, Math.min(st.cursor, list.length - 1));
  };
  const at = clampAt(rows);
  const room = Math.max(1, height - 5); // border (2), title, filter line, counts line
  const start = Math.max(0, Math.min(at - Math.floor(room / 2), rows.length - room));
  const visible = rows.slice(start, start + room);

  useKeypress(
    (name, input) => {
      const rowsNow = rowsFor();
      const atNow = clampAt(rowsNow);
      const goTo = (i: number) => {
        st.cursor = Math.max(0, Math.min(rowsNow.length - 1, i));
        st.userId = rowsNow[st.cursor]?.userId;
      };
      const move = (d: number) => goTo(atNow + d);
      const setFilter = (f: string) => {
        st.filter = f;
        st.cursor = 0;
        st.userId = undefined;
      };
      const row = rowsNow[atNow];
      if (st.editing) {
        const action = keymap.action("popup.people.filter", name);
        if (action === "peopleFilter.done") st.editing = false;
        else if (action === "peopleFilter.down") move(1);
        else if (action === "peopleFilter.message") {
          if (row) onOpen(row);
        } else if (action === "peopleFilter.erase") setFilter(st.filter.slice(0, -1));
        else if (action === "peopleFilter.clear") setFilter("");
        else if (action === "peopleFilter.up") move(-1);
        else {
          const typed = typedText(name, input);
          if (typed !== undefined) setFilter(st.filter + typed);
        }
        redraw();
        return true;
      }
      const action = keymap.action("popup.people", name);
      if (action === "people.close") close();
      else if (action === "people.down") move(1);
      else if (action === "people.up") move(-1);
      else if (action === "people.pageDown") move(room);
      else if (action === "people.pageUp") move(-room);
      else if (action === "people.first") goTo(0);
      else if (action === "people.last") goTo(rowsNow.length - 1);
      else if (action === "people.filter") st.editing = true;
      else if (action === "people.message" && row) onOpen(row);
      else if (action === "people.card" && row) onCard(row);
      redraw();
      return true;
    },
    { priority: 50 },
  );

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
