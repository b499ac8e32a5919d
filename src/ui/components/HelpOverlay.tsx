import { Box, Text } from "ink";
import type { Keymap } from "../keymap.js";

const TITLES: Record<string, string> = { global: "Anywhere", sidebar: "Sidebar", messages: "Messages", compose: "Compose" };

/** Generated from the live keymap, so it never disagrees with the keys. */
export function HelpOverlay({ keymap, height, width }: { keymap: Keymap; height: number; width: number }) {
  const rows = keymap.helpRows();
  const lines: Array<{ title?: string; keys?: string; help?: string }> = [];
  let last = "";
  for (const r of rows) {
    if (r.context !== last) {
      lines.push({ title: TITLES[r.context] ?? r.context });
      last = r.context;
    }
    lines.push({ keys: r.keys, help: r.help });
  }
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={width} height={height} flexShrink={0}>
      <Text bold>termchat keys — Esc or ? to close</Text>
      {lines.slice(0, Math.max(0, height - 3)).map((l, i) =>
        l.title ? (
          <Text key={i} bold color="cyan">
            {l.title}
          </Text>
        ) : (
          <Text key={i} wrap="truncate">
            {"  " + (l.keys ?? "").padEnd(22) + (l.help ?? "")}
          </Text>
        ),
      )}
    </Box>
  );
}
