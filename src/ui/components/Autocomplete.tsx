/** The autocomplete list drawn just above the compose box: one row per suggestion, the highlighted one inverse. */
import { Box, Text } from "ink";
import { sanitizeInline } from "../../render/sanitize.js";
import type { Suggestion } from "../autocomplete.js";
import { useTheme } from "../theme.js";

export interface AutocompleteProps {
  items: Suggestion[];
  index: number;
  width: number;
}

const KIND_MARK: Record<Suggestion["kind"], string> = { user: "@", group: "@", channel: "#", topic: ">", emoji: ":" };

export function Autocomplete({ items, index, width }: AutocompleteProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {items.map((s, i) => {
        const on = i === index;
        return (
          <Text key={`${i}:${s.insert}`} wrap="truncate" inverse={on}>
            <Text color={on ? undefined : theme.accent}>{on ? "▸" : " "}</Text>
            <Text dimColor={!on}>{KIND_MARK[s.kind]} </Text>
            <Text bold={on}>{sanitizeInline(s.label)}</Text>
            {s.detail ? <Text dimColor>{"  " + sanitizeInline(s.detail)}</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}
