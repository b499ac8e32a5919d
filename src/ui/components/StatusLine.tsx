import { Box, Text } from "ink";
import type { ConnectionState } from "../../sync/update-machine.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { truncate } from "../../render/wrap.js";

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

export function StatusLine(p: { state: ConnectionState; organization: string; user: string; notice?: string; cached?: boolean; width: number }) {
  const conn = connectionLabel(p.state, p.cached);
  const right = `${sanitizeInline(p.organization)} · ${sanitizeInline(p.user)} · ? help`;
  const left = p.notice ? sanitizeInline(p.notice) : conn.text;
  const room = Math.max(10, p.width - right.length - 2);
  return (
    <Box width={p.width} flexShrink={0}>
      <Text wrap="truncate">
        <Text color={p.notice ? "yellow" : conn.color}>{truncate(sanitizeInline(left), room).padEnd(room)}</Text>
        <Text dimColor>{"  " + right}</Text>
      </Text>
    </Box>
  );
}
