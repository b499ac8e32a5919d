/** A bordered box drawn over the main area, with a title and a key hint. */
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { useTheme } from "../theme.js";

export function Popup({ title, hint, width, height, children }: { title: string; hint?: string; width: number; height: number; children: ReactNode }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} width={width} height={height} flexShrink={0}>
      <Text wrap="truncate">
        <Text bold>{title}</Text>
        {hint ? <Text dimColor>{"  " + hint}</Text> : null}
      </Text>
      {children}
    </Box>
  );
}
