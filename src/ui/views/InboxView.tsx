/** The Inbox: unread conversations grouped by channel and DM. (Navigation comes with the inbox feature.) */
import { Box, Text } from "ink";
import { inbox } from "../../model/selectors-views.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { useActionContext } from "../app-context.js";

export function InboxView({ width, height }: { width: number; height: number; focused: boolean }) {
  const { store } = useActionContext();
  const data = inbox(store);
  const lines: string[] = [];
  for (const d of data.dms) lines.push(`@ ${sanitizeInline(d.names)}  ${d.unread}`);
  for (const c of data.channels) {
    lines.push(`# ${sanitizeInline(c.name)}  ${c.unread}`);
    for (const t of c.topics) lines.push(`    ${sanitizeInline(t.displayName)}  ${t.unread}`);
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold>Inbox</Text>
      {lines.length === 0 ? <Text dimColor>Nothing unread. </Text> : lines.slice(0, height - 1).map((l, i) => <Text key={i} wrap="truncate">{l}</Text>)}
    </Box>
  );
}
