/**
 * The message pane: the laid-out lines around the selected message, only
 * as many as fit (the window). A gutter marks the selection (on each of its
 * lines) and unread messages (on their first line), in the marks of every
 * list (RowMark.tsx); recipient headers take their channel's colour, made
 * readable on the background; reactions show the reader's own in brackets
 * and the theme's colour.
 *
 * A key that moves the selection changes the marks of a few rows only. The marks are a column of
 * their own beside the lines, each mark memoised (PaneMark): a key renders again the marks of the
 * lines of the message it leaves and of the one it selects, and no line. Had the mark been part of
 * its line's text, each of those lines would be rendered, squashed, measured and parsed again
 * (as new strings) for a one-cell change. Each line is memoised too (MessageRow), and renders
 * again only when its line, the theme or the glyphs change. The lines are the laid-out blocks'
 * own objects, the same from frame to frame while their message is unchanged (block-memo.ts); a
 * changed message brings new line objects.
 */
import { Box, Text, type DOMElement } from "ink";
import { memo, useRef } from "react";
import { useImageOverlay } from "../images/use-image-overlay.js";
import { CHIP_GAP, segmentText, type Block, type Line } from "../message-layout.js";
import { glyphs, presentationKey } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { useHitRegion } from "../mouse/hit-map.js";
import { paneStart } from "../sticky-window.js";
import { useRenderProbe } from "../render-probe.js";
import { useTheme, type Theme } from "../theme.js";
import { RowMark, type MarkKind } from "./RowMark.js";

export interface MessagePaneProps {
  blocks: Block[];
  /** Lines of the first block scrolled off above the pane (sticky-window.ts). */
  skip?: number;
  selectedId: number | undefined;
  unread: Set<number>;
  height: number;
  width: number;
  focused: boolean;
  placeholder?: string;
}

/** Which lines of the laid-out blocks to show: from `skip` on, moved only to keep the selected block visible. */
export function visibleLines(blocks: Block[], selectedId: number | undefined, height: number, skip?: number) {
  const rows: Array<{ line: Line; id: number; first: boolean }> = [];
  for (const b of blocks) b.lines.forEach((line, i) => rows.push({ line, id: b.id, first: i === 0 }));
  const start = paneStart(blocks, selectedId, height, skip);
  return rows.slice(start, start + height);
}

export function MessagePane({ blocks, skip, selectedId, unread, height, width, focused, placeholder }: MessagePaneProps) {
  const theme = useTheme();
  const rows = visibleLines(blocks, selectedId, height, skip);
  const box = useRef<DOMElement>(null);
  useImageOverlay(box, rows);
  // Two columns before a line's text: the gutter's mark and the body's indent.
  useHitRegion({ kind: "messages", box, rows, textLeft: 2 });
  const glyphSet = presentationKey();
  return (
    // Clipped top and bottom only: each row is cut to the pane's width already (wrap="truncate"),
    // and a clip across would have every line of a page sliced again, column by column.
    <Box ref={box} flexDirection="column" height={height} width={width} flexShrink={0} overflowY="hidden">
      {rows.length === 0 ? (
        <Text dimColor>{sanitizeInline(placeholder ?? "")}</Text>
      ) : (
        <Box flexDirection="row" flexShrink={0}>
          <Box flexDirection="column" width={1} flexShrink={0}>
            {rows.map((r, i) => (
              <PaneMark key={i} kind={r.id === selectedId ? "selected" : r.line.lead && unread.has(r.id) ? "unread" : "none"} focused={focused} glyphSet={glyphSet} />
            ))}
          </Box>
          <Box flexDirection="column" width={Math.max(0, width - 1)} flexShrink={0}>
            {rows.map((r, i) => (
              <MessageRow key={i} line={r.line} theme={theme} glyphSet={glyphSet} />
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
}

/** The gutter's cell of one row. Rendered again only when its mark, the focus or the glyphs change. */
const PaneMark = memo(function PaneMark({ kind, focused }: { kind: MarkKind; focused: boolean; glyphSet: string }) {
  useRenderProbe("pane mark");
  return <RowMark kind={kind} focused={focused} />;
});

export interface MessageRowProps {
  line: Line;
  theme: Theme;
  /** The glyph set in use (presentationKey): rules are drawn with it. */
  glyphSet: string;
}

/** One row's line, after the gutter. Rendered again only when a prop changes (lines are never changed in place). */
export const MessageRow = memo(function MessageRow({ line, theme }: MessageRowProps) {
  useRenderProbe("message row");
  return (
    <Text wrap="truncate">
      <StyledLine line={line} theme={theme} />
    </Text>
  );
});

/**
 * The text a row paints for a line drawn without styles of its own (a body line, most of a page:
 * the indent and the line as laid out), exactly as the frame buffer parses it into cells; the
 * other lines are styled by Ink as they are drawn. Undefined for those.
 */
export function plainRowText(line: Line): string | undefined {
  return line.style === "body" ? " " + line.text : undefined;
}

function StyledLine({ line, theme }: { line: Line; theme: Theme }) {
  switch (line.style) {
    case "day": {
      // A short rule on either side: a rule across the pane costs three bytes a column on every redraw.
      const rule = glyphs().rule.repeat(2);
      return <Text dimColor>{`${rule} ${line.text} ${rule}`}</Text>;
    }
    case "recipient": {
      const color = line.color ? theme.channel(line.color) : theme.recipient;
      return (
        <Text color={color} bold>
          {line.text}
        </Text>
      );
    }
    case "sender":
      return (
        <Text bold color={line.mentioned ? theme.selfMention : undefined}>
          {line.text}
        </Text>
      );
    case "reactions":
      return (
        <Text>
          {" "}
          {(line.segments ?? []).map((s, i) => (
            <Text key={i}>
              {i > 0 ? CHIP_GAP : ""}
              <Text color={s.mine ? theme.accent : theme.reactions} bold={s.mine}>
                {segmentText(s)}
              </Text>
            </Text>
          ))}
        </Text>
      );
    case "note":
      return <Text dimColor>{" " + line.text}</Text>;
    case "body":
      return <Text>{plainRowText(line)}</Text>;
    case "widget":
      return (
        <Text bold={line.tone === "title" || line.tone === "mine"} color={line.tone === "mine" ? theme.accent : undefined} dimColor={line.tone === "done" || line.tone === "dim"}>
          {" " + line.text}
        </Text>
      );
  }
}
