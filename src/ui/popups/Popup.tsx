/** A bordered box drawn over the main area, with a title and a key hint (the client's own text: its typography follows the glyphs). */
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { glyphs, t } from "../../render/glyphs.js";
import { useTheme } from "../theme.js";

export function Popup({ title, hint, width, height, children }: { title: string; hint?: string; width: number; height: number; children: ReactNode }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" borderStyle={glyphs().box} borderColor={theme.accent} paddingX={1} width={width} height={height} flexShrink={0}>
      <Text wrap="truncate">
        <Text bold>{title}</Text>
        {hint ? <Text dimColor>{"  " + t(hint)}</Text> : null}
      </Text>
      {children}
    </Box>
  );
}
