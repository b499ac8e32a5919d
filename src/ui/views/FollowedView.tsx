/**
 * Followed topics: every topic the user follows in subscribed channels,
 * those with unread messages first, then the most recent. Same keys as the
 * Inbox: j/k move, Enter opens the topic at its first unread, M marks it read.
 */
import { Box, Text } from "ink";
import { useMemo } from "react";
import { glyphs, presentResolved, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { truncate } from "../../render/wrap.js";
import { useFeatureContext } from "../contexts.js";
import { useStoreVersion } from "../hooks/use-store.js";
import { useTheme } from "../theme.js";
import { followedRows } from "../list-rows.js";
import { ListLine, markConversationRead, useListCursor } from "./InboxView.js";

export function FollowedView({ width, height, focused }: { width: number; height: number; focused: boolean }) {
  const ctx = useFeatureContext();
  const theme = useTheme();
  const version = useStoreVersion(ctx.store);
  const rows = useMemo(() => followedRows(ctx.store), [ctx.store, version]);
  const unread = rows.reduce((n, r) => n + r.unread, 0);
  const { cursor, start, visible, box } = useListCursor("followed", rows, Math.max(1, height - 1), {
    active: focused && ctx.ui.focus === "messages",
    onOpen: (row) => ctx.openNarrow(row.narrow, { focus: "messages", select: ctx.store.firstUnreadIn(row.narrow) }),
    onMarkRead: (row) => markConversationRead(ctx, row.narrow),
  });
  const channelColor = (c: string | undefined) => theme.channel(c, "mark");
  return (
    <Box ref={box} flexDirection="column" width={width} height={height} flexShrink={0}>
      <Text wrap="truncate">
        <Text bold>Followed topics</Text>
        <Text dimColor>{rows.length ? t`  ${unread} unread · Enter open · M mark read` : ""}</Text>
      </Text>
      {rows.length === 0 ? <Text dimColor>You follow no topics yet. Following a topic keeps it here, with its unread count.</Text> : null}
      {visible.map((row, i) => (
        <ListLine
          key={row.key}
          width={width}
          selected={start + i === cursor}
          focused={focused}
          theme={theme}
          prefix={`#${truncate(sanitizeInline(row.channel), 20)} ${glyphs().prompt} `}
          prefixColor={channelColor(row.color)}
          text={presentResolved(sanitizeInline(row.topic))}
          count={row.unread}
          bold={row.unread > 0}
        />
      ))}
    </Box>
  );
}

