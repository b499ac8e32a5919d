/**
 * The body of the time and snippet popups (scheduled messages, reminders,
 * saved snippets): two lines per item — a title with details, then a line of
 * its text; a third says what went wrong, if anything — the cursor's item inverse, windowed around the cursor. Each popup
 * keeps its own keys; strings are sanitized by the caller's `rows`, here again
 * for safety.
 */
import { Box, Text } from "ink";
import { useState, type ReactNode } from "react";
import { sanitizeInline } from "../../render/sanitize.js";
import { RowMark } from "../components/RowMark.js";
import { useTheme } from "../theme.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export interface ItemRow {
  key: string;
  title: string;
  /** After the title, dim ("scheduled", "failed"…). */
  detail?: string;
  /** Said in the error colour on a line of its own (a failed delivery and why). */
  problem?: string;
  /** The second line: the item's text, its first non-empty line. */
  body: string;
}

/**
 * A list popup's state (its cursor, what is typed), kept by whoever opened it: only the top
 * popup is drawn, so a list under a form or a question is unmounted, and comes back as it was.
 */
export function useKept<T extends object>(kept: T): [() => T, (v: Partial<T>) => void] {
  const [, setTick] = useState(0);
  return [
    () => kept,
    (v) => {
      Object.assign(kept, v);
      setTick((t) => t + 1);
    },
  ];
}

/** The cursor kept within a list of `count` items. */
export function clampCursor(cursor: number, count: number): number {
  return Math.max(0, Math.min(cursor, count - 1));
}

export function ItemList({ title, hint, rows, cursor, empty, header }: { title: string; hint: string; rows: ItemRow[]; cursor: number; empty: string; header?: ReactNode }) {
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const at = clampCursor(cursor, rows.length);
  // Two lines an item; three where one says what went wrong (on a line of its own, so it is read whole).
  const room = Math.max(1, Math.floor((height - 3 - (header ? 1 : 0)) / (rows.some((r) => r.problem) ? 3 : 2)));
  const offset = Math.max(0, Math.min(at - Math.floor(room / 2), rows.length - room));
  return (
    <Popup title={title} hint={hint} width={width} height={height}>
      {header}
      {rows.length === 0 ? <Text dimColor>{empty}</Text> : null}
      {rows.slice(offset, offset + room).map((r, i) => {
        const on = offset + i === at;
        const first = sanitizeInline(r.body.split("\n").find((l) => l.trim()) ?? "");
        return (
          <Box key={r.key} flexDirection="column">
            <Text wrap="truncate" inverse={on}>
              <RowMark kind={on ? "selected" : "none"} inverse={on} />{" "}
              <Text bold color={on ? undefined : theme.recipient}>
                {sanitizeInline(r.title)}
              </Text>
              {r.detail ? <Text dimColor>{"  " + sanitizeInline(r.detail)}</Text> : null}
            </Text>
            {r.problem ? (
              <Text wrap="truncate" color={theme.error}>
                {"    " + sanitizeInline(r.problem)}
              </Text>
            ) : null}
            <Text wrap="truncate">{"    " + (first || " ")}</Text>
          </Box>
        );
      })}
    </Popup>
  );
}
