/**
 * The people list (w): everyone in the organization with presence (active,
 * idle, offline) and status (emoji and text), a filter line, and keys to
 * open a direct-message conversation with someone (Enter) or see their
 * card (u). Only the rows that fit are rendered.
 */
import { Box, Text } from "ink";
import { useState, type ReactNode } from "react";
import { userRows, type UserRow } from "../../model/selectors-views.js";
import { emojiByName } from "../../render/emoji.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useScreenState } from "../contexts.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { typedText } from "../keys.js";
import { usePresenceVersion } from "../hooks/use-store.js";
import { useTheme } from "../theme.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export interface PeopleProps {
  close: () => void;
  /** Enter on a person. */
  onOpen: (row: UserRow) => void;
  /** u on a person. */
  onCard: (row: UserRow) => void;
  /** The clock for presence (tests pin it). */
  now?: () => number;
}

const DOTS: Record<UserRow["presence"], string> = { active: "●", idle: "◐", offline: "○" };

/** The status shown after a name: emoji (when known) and text, cleaned. */
export function statusLabel(row: UserRow): string {
  const emoji = row.statusEmoji ? (emojiByName(row.statusEmoji) ?? `:${sanitizeInline(row.statusEmoji)}:`) : "";
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
  return parts.filter(Boolean).join(" · ");
}

export function People({ close, onOpen, onCard, now = Date.now }: PeopleProps): ReactNode {
  const { store, keymap } = useScreenState();
  usePresenceVersion(store); // presence dots follow the server live
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [filter, setFilter] = useState("");
  const [editing, setEditing] = useState(false);
  const [cursor, setCursor] = useState(0);
  const rows = userRows(store, now(), { filter: filter || undefined });
  const at = Math.max(0, Math.min(cursor, rows.length - 1));
  const room = Math.max(1, height - 5); // border (2), title, filter line, counts line
  const start = Math.max(0, Math.min(at - Math.floor(room / 2), rows.length - room));
  const visible = rows.slice(start, start + room);
  const move = (d: number) => setCursor(Math.max(0, Math.min(rows.length - 1, at + d)));

  useKeypress(
    (name, input) => {
      if (editing) {
        const action = keymap.action("popup.people.filter", name);
        if (action === "peopleFilter.done") setEditing(false);
        else if (action === "peopleFilter.down") move(1);
        else if (action === "peopleFilter.message") {
          const row = rows[at];
          if (row) onOpen(row);
        } else if (action === "peopleFilter.erase") {
          setFilter((f) => f.slice(0, -1));
          setCursor(0);
        } else if (action === "peopleFilter.clear") {
          setFilter("");
          setCursor(0);
        } else if (action === "peopleFilter.up") move(-1);
        else {
          const typed = typedText(name, input);
          if (typed !== undefined) {
            setFilter((f) => f + typed);
            setCursor(0);
          }
        }
        return true;
      }
      const row = rows[at];
      const action = keymap.action("popup.people", name);
      if (action === "people.close") close();
      else if (action === "people.down") move(1);
      else if (action === "people.up") move(-1);
      else if (action === "people.pageDown") move(room);
      else if (action === "people.pageUp") move(-room);
      else if (action === "people.first") setCursor(0);
      else if (action === "people.last") setCursor(rows.length - 1);
      else if (action === "people.filter") setEditing(true);
      else if (action === "people.message" && row) onOpen(row);
      else if (action === "people.card" && row) onCard(row);
      return true;
    },
    { priority: 50 },
  );

  const active = rows.filter((r) => r.presence === "active").length;
  const inner = Math.max(10, width - 4);
  return (
    <Popup title="People" hint={editing ? "type to filter · ↑/↓ move · Enter message · Esc list" : "j/k move · Enter message · u card · / filter · Esc close"} width={width} height={height}>
      <Text wrap="truncate" inverse={editing}>
        {truncate(`/ ${filter}${editing ? "▏" : ""}`, inner)}
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
            <Text color={selected ? theme.selection : undefined}>{selected ? "▶ " : "  "}</Text>
            <Text color={presenceColor} dimColor={r.presence === "offline"}>
              {DOTS[r.presence] + " "}
            </Text>
            <Text wrap="truncate" bold={selected} dimColor={r.presence === "offline" && !selected}>
              {name + (status && statusRoom > 3 ? "  " : "")}
              {status && statusRoom > 3 ? <Text dimColor>{truncate(status, statusRoom)}</Text> : null}
            </Text>
          </Box>
        );
      })}
      {rows.length === 0 ? <Text dimColor>{filter ? "Nobody matches." : "Nobody here."}</Text> : null}
      <Box flexGrow={1} />
      <Text dimColor wrap="truncate">
        {`${rows.length} ${rows.length === 1 ? "person" : "people"} · ${active} active`}
      </Text>
    </Popup>
  );
}
