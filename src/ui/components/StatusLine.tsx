/**
 * The status line: the connection's state or the latest notice on the left,
 * the organization, the user and "? help" on the right. What the left says
 * comes first: the right gives up its parts (the organization, then the
 * user, then the help key) before the left is cut. A notice too long for the
 * row goes over up to four rows above it, the state staying in its row (the
 * screen gives them up until the next key clears the notice).
 */
import { Box, Text } from "ink";
import { memo } from "react";
import type { ConnectionState } from "../../sync/account-handle.js";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate, wrapLine } from "../../render/wrap.js";
import { useRenderProbe } from "../render-probe.js";
import { useTheme } from "../theme.js";

/** The most rows a long notice takes above the state's row. */
export const MAX_NOTICE_ROWS = 4;

/** The connection as the status line says it, with the theme's role for its colour (none: the terminal's own). */
export function connectionLabel(s: ConnectionState, cached = false): { text: string; color?: "ok" | "warn" | "error" } {
  // The screen shows the last run's state (the local cache) until the server's arrives.
  if (cached && s.kind === "connecting") return { text: t("updating… (showing the last run's state)"), color: "warn" };
  if (cached && s.kind === "reconnecting") return { text: t`offline: showing the last run's state; reconnecting… (${s.error})`, color: "warn" };
  switch (s.kind) {
    case "connecting":
      return { text: t("connecting…"), color: "warn" };
    case "live":
      return { text: `${glyphs().active} connected`, color: "ok" };
    case "reconnecting":
      return { text: t`reconnecting… (${s.error})`, color: "warn" };
    case "failed":
      return { text: `${glyphs().cross} ${s.error}`, color: "error" };
    case "stopped":
      return { text: "stopped" };
  }
}

export interface StatusLineProps {
  state: ConnectionState;
  organization: string;
  user: string;
  notice?: string;
  /** A note (drawn in the accent colour) or a warning (the default, in the warning colour). */
  noticeKind?: "info" | "error";
  cached?: boolean;
  width: number;
}

type Role = "ok" | "warn" | "error" | "accent";

/**
 * What the status line shows in `width` columns: the row of the state (or a
 * notice that fits in it) with the right part beside it, and above it the
 * rows of a notice too long for one; colours as the theme's roles.
 */
export function statusLayout(p: StatusLineProps): { above: string[]; aboveColor: Role; left: string; right: string; color?: Role } {
  const conn = connectionLabel(p.state, p.cached);
  const notice = p.notice ? sanitizeInline(p.notice) : "";
  const parts = [sanitizeInline(p.organization), sanitizeInline(p.user), "? help"].filter(Boolean);
  const fit = (left: string) => {
    for (let from = 0; from <= parts.length; from++) {
      const right = parts.slice(from).join(t(" · "));
      if (displayWidth(left) + (right ? displayWidth(right) + 2 : 0) <= p.width) return right;
    }
    return undefined;
  };
  const noticeColor: Role = p.noticeKind === "info" ? "accent" : "warn";
  if (notice && fit(notice) !== undefined) return { above: [], aboveColor: noticeColor, left: notice, right: fit(notice)!, color: noticeColor };
  const right = fit(conn.text);
  const state = { left: right === undefined ? truncate(conn.text, p.width) : conn.text, right: right ?? "", ...(conn.color && { color: conn.color }) };
  if (!notice) return { above: [], aboveColor: noticeColor, ...state };
  const above = wrapLine(notice, p.width).split("\n");
  if (above.length > MAX_NOTICE_ROWS) {
    above.length = MAX_NOTICE_ROWS;
    above[MAX_NOTICE_ROWS - 1] = truncate(`${above[MAX_NOTICE_ROWS - 1]} ${glyphs().ellipsis}`, p.width);
  }
  return { above: above.map((r) => truncate(r, p.width)), aboveColor: noticeColor, ...state };
}

/** The rows the status line takes. */
export function statusRows(p: StatusLineProps): number {
  return statusLayout(p).above.length + 1;
}

/** Renders again only when what it shows changed (not for every key). */
export const StatusLine = memo(function StatusLine(p: StatusLineProps) {
  useRenderProbe("status line");
  const theme = useTheme();
  const { above, aboveColor, left, right, color } = statusLayout(p);
  return (
    <Box width={p.width} flexDirection="column" flexShrink={0}>
      {above.map((row, i) => (
        <Text key={i} wrap="truncate" color={theme[aboveColor]}>
          {row}
        </Text>
      ))}
      <Text wrap="truncate">
        <Text color={color && theme[color]}>{right ? left + " ".repeat(Math.max(0, p.width - displayWidth(right) - 2 - displayWidth(left))) : left}</Text>
        {right ? <Text dimColor>{"  " + right}</Text> : null}
      </Text>
    </Box>
  );
});
