import { Box, Text } from "ink";
import type { ConnectionState } from "../../sync/update-machine.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { truncate } from "../../render/wrap.js";

export function connectionLabel(s: ConnectionState): { text: string; color: string } {
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

export function StatusLine(p: { state: ConnectionState; organization: string; user: string; notice?: string; width: number }) {
  const conn = connectionLabel(p.state);
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
