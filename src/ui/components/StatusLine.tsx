import { Box, Text } from "ink";
import type { ConnectionState } from "../../sync/update-machine.js";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { truncate } from "../../render/wrap.js";
import { useTheme } from "../theme.js";

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

export function StatusLine(p: { state: ConnectionState; organization: string; user: string; notice?: string; cached?: boolean; width: number }) {
  const theme = useTheme();
  const conn = connectionLabel(p.state, p.cached);
  const right = t`${sanitizeInline(p.organization)} · ${sanitizeInline(p.user)} · ? help`;
  const left = p.notice ? sanitizeInline(p.notice) : conn.text;
  const room = Math.max(10, p.width - right.length - 2);
  const color = p.notice ? theme.warn : conn.color ? theme[conn.color] : undefined;
  return (
    <Box width={p.width} flexShrink={0}>
      <Text wrap="truncate">
        <Text color={color}>{truncate(sanitizeInline(left), room).padEnd(room)}</Text>
        <Text dimColor>{"  " + right}</Text>
      </Text>
    </Box>
  );
}
