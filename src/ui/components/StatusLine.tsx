/**
 * The status line: the connection's state or the latest notice on the left,
 * the organization, the user and "? help" on the right. What the left says
 * comes first: the right gives up its parts (the organization, then the
 * user, then the help key) before the left is cut. A notice too long for the
 * row goes over up to four rows above it, the state staying in its row (the
 * screen gives them up until the next key clears the notice).
 */
import { Box, Text } from "ink";
import type { ConnectionState } from "../../sync/update-machine.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate, wrapLine } from "../../render/wrap.js";

/** The most rows a long notice takes above the state's row. */
export const MAX_NOTICE_ROWS = 4;

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

/**
 * What the status line shows in `width` columns: the row of the state (or a
 * notice that fits in it) with the right part beside it, and above it the
 * rows of a notice too long for one.
 */
export function statusLayout(p: StatusLineProps): { above: string[]; left: string; right: string; color: string } {
  const conn = connectionLabel(p.state, p.cached);
  const notice = p.notice ? sanitizeInline(p.notice) : "";
  const parts = [sanitizeInline(p.organization), sanitizeInline(p.user), "? help"].filter(Boolean);
  const fit = (left: string) => {
    for (let from = 0; from <= parts.length; from++) {
      const right = parts.slice(from).join(" · ");
      if (displayWidth(left) + (right ? displayWidth(right) + 2 : 0) <= p.width) return right;
    }
    return undefined;
  };
  if (notice && fit(notice) !== undefined) return { above: [], left: notice, right: fit(notice)!, color: "yellow" };
  const right = fit(conn.text);
  const state = { left: right === undefined ? truncate(conn.text, p.width) : conn.text, right: right ?? "", color: conn.color };
  if (!notice) return { above: [], ...state };
  const above = wrapLine(notice, p.width).split("\n");
  if (above.length > MAX_NOTICE_ROWS) {
    above.length = MAX_NOTICE_ROWS;
    above[MAX_NOTICE_ROWS - 1] = truncate(above[MAX_NOTICE_ROWS - 1] + " …", p.width);
  }
  return { above: above.map((r) => truncate(r, p.width)), ...state };
}

/** The rows the status line takes. */
export function statusRows(p: StatusLineProps): number {
  return statusLayout(p).above.length + 1;
}

export function StatusLine(p: StatusLineProps) {
  const { above, left, right, color } = statusLayout(p);
  return (
    <Box width={p.width} flexDirection="column" flexShrink={0}>
      {above.map((row, i) => (
        <Text key={i} wrap="truncate" color="yellow">
          {row}
        </Text>
      ))}
      <Text wrap="truncate">
        <Text color={color}>{right ? left + " ".repeat(Math.max(0, p.width - displayWidth(right) - 2 - displayWidth(left))) : left}</Text>
        {right ? <Text dimColor>{"  " + right}</Text> : null}
      </Text>
    </Box>
  );
}
