/** The autocomplete list drawn just above the compose box: one row per suggestion, the highlighted one inverse. */
import { Box, Text } from "ink";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { Suggestion } from "../autocomplete.js";
import { RowMark } from "./RowMark.js";

export interface AutocompleteProps {
  items: Suggestion[];
  index: number;
  width: number;
}

const KIND_MARK: Record<Suggestion["kind"], string> = { user: "@", group: "@", channel: "#", topic: ">", emoji: ":" };

export function Autocomplete({ items, index, width }: AutocompleteProps) {
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {items.map((s, i) => {
        const on = i === index;
        if (s.waiting) {
          return (
            <Text key={`${i}:waiting`} wrap="truncate" dimColor>
              <RowMark kind="none" />
              {KIND_MARK[s.kind]} {t(s.label)}
            </Text>
          );
        }
        return (
          <Text key={`${i}:${s.insert}`} wrap="truncate" inverse={on}>
            <RowMark kind={on ? "selected" : "none"} inverse={on} />
            <Text dimColor={!on}>{KIND_MARK[s.kind]} </Text>
            <Text bold={on}>{sanitizeInline(s.label)}</Text>
            {s.detail ? <Text dimColor>{"  " + sanitizeInline(s.detail)}</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}
