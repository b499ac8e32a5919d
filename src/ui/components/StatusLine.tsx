/**
 * The status line: the connection's state or the latest notice on the left,
 * the organization, the user and "? help" on the right. What the left says
 * comes first: the right gives up its parts (the organization, then the
 * user, then the help key) before the left is cut, and a notice too long for
 * the whole width goes on over up to three rows (the screen above gives them
 * up until the next key clears the notice).
 */
import { Box, Text } from "ink";
import type { ConnectionState } from "../../sync/update-machine.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate, wrapLine } from "../../render/wrap.js";

/** The most rows a long notice takes. */
export const MAX_STATUS_ROWS = 3;

export function connectionLabel(s: ConnectionState, cached = false): { text: string; color: string } {
  // The screen shows the last run's state (the local cache) until the server's arrives.
  if (cached && s.kind === "connecting") return { text: "updating… (showing the last run's state)", color: "yellow" };
  if (cached && s.kind === "reconnecting") return { text: `offline: showing the last run's state; reconnecting… (${s.error})`, color: "yellow" };
  switch (s.kind) {
    case "connecting":
      return { text: "connecting…", color: "yellow" };
    case "live":
      return { text: "● connected", color: "green" };
    case "reconnecting":
      return { text: `reconnecting… (${s.error})`, color: "yellow" };
    case "failed":
      return { text: `✖ ${s.error}`, color: "red" };
    case "stopped":
      return { text: "stopped", color: "gray" };
  }
}

export interface StatusLineProps {
  state: ConnectionState;
  organization: string;
  user: string;
  notice?: string;
  cached?: boolean;
  width: number;
}

/** What the status line shows in `width` columns: the left part's rows, and the right part beside the last one (or nothing). */
export function statusLayout(p: StatusLineProps): { rows: string[]; right: string; color: string; notice: boolean } {
  const conn = connectionLabel(p.state, p.cached);
  const left = sanitizeInline(p.notice || conn.text);
  const color = p.notice ? "yellow" : conn.color;
  const parts = [sanitizeInline(p.organization), sanitizeInline(p.user), "? help"].filter(Boolean);
  for (let from = 0; from <= parts.length; from++) {
    const right = parts.slice(from).join(" · ");
    const need = displayWidth(left) + (right ? displayWidth(right) + 2 : 0);
    if (need <= p.width) return { rows: [left], right, color, notice: !!p.notice };
  }
  if (!p.notice) return { rows: [truncate(left, p.width)], right: "", color, notice: false };
  const rows = wrapLine(left, p.width).split("\n");
  if (rows.length > MAX_STATUS_ROWS) {
    rows.length = MAX_STATUS_ROWS;
    rows[MAX_STATUS_ROWS - 1] = truncate(rows[MAX_STATUS_ROWS - 1] + " …", p.width);
  }
  return { rows: rows.map((r) => truncate(r, p.width)), right: "", color, notice: true };
}

/** The rows the status line takes. */
export function statusRows(p: StatusLineProps): number {
  return statusLayout(p).rows.length;
}

export function StatusLine(p: StatusLineProps) {
  const { rows, right, color } = statusLayout(p);
  const last = rows.length - 1;
  return (
    <Box width={p.width} flexDirection="column" flexShrink={0}>
      {rows.map((row, i) => (
        <Text key={i} wrap="truncate">
          <Text color={color}>{i === last && right ? row + " ".repeat(Math.max(0, p.width - displayWidth(right) - 2 - displayWidth(row))) : row}</Text>
          {i === last && right ? <Text dimColor>{"  " + right}</Text> : null}
        </Text>
      ))}
    </Box>
  );
}
