/**
 * A bordered box whose first row carries a title and the key hints. Hints
 * that do not fit beside the title go on in the bottom border, whole
 * (split at their " · "), so a narrow box shows every key instead of
 * cutting them off ("Esc …"); the bottom border is a row the box has
 * anyway, so its content keeps all its rows. Its lines are the glyphs' in use (ASCII ones
 * without UTF-8), and the hints' typography too.
 */
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { glyphs, t, type BorderStyle } from "../../render/glyphs.js";
import { displayWidth, truncate } from "../../render/wrap.js";

/** The bottom border's corners and line, drawn here (the hints go in it), for each style Ink draws the rest in. */
const BOTTOM: Record<BorderStyle, { left: string; right: string; line: string }> = {
  round: { left: "╰", right: "╯", line: "─" },
  single: { left: "└", right: "┘", line: "─" },
  classic: { left: "+", right: "+", line: "-" },
};

export interface FramedProps {
  title: string;
  titleColor?: string;
  titleBold?: boolean;
  /** Dim text right after the title, kept whole (the title is cut first): "3-8/12". */
  note?: string;
  /** Key hints, "a · b · c". */
  hint?: string;
  width: number;
  height?: number;
  /** Which of the glyphs' borders: a popup's (`box`) or the compose box's (`boxSingle`). */
  border: "box" | "boxSingle";
  borderColor?: string;
  paddingX?: number;
  children?: ReactNode;
}

/**
 * The hints split between the title row (`room` cells beside the title) and
 * the bottom border (`bottomRoom` cells): in order, as many whole hints as
 * fit on the title row, the rest below; when even that is too narrow, the
 * hints that fit and "…".
 */
export function splitHints(hint: string, room: number, bottomRoom: number, separator = " · "): { top: string; bottom: string } {
  if (displayWidth(hint) <= room) return { top: hint, bottom: "" };
  const parts = hint.split(separator).filter(Boolean);
  const take = (from: number, width: number): [string, number] => {
    let out = "";
    let i = from;
    for (; i < parts.length; i++) {
      const next = out ? `${out}${separator}${parts[i]}` : parts[i]!;
      if (displayWidth(next) > width) break;
      out = next;
    }
    return [out, i];
  };
  const [top, next] = take(0, room);
  const rest = parts.slice(next).join(separator);
  if (displayWidth(rest) <= bottomRoom) return { top, bottom: rest };
  const ellipsis = glyphs().ellipsis;
  const [some] = take(next, bottomRoom - 1 - displayWidth(ellipsis));
  return { top, bottom: some ? `${some} ${ellipsis}` : truncate(rest, bottomRoom) };
}

/** The bottom border with hints in it: "└─ hints ──┘", or "└ hints ┘" when that is what fits. */
function bottomBorder(hints: string, width: number, line: string): { lead: string; tail: string } {
  if (!hints) return { lead: "", tail: line.repeat(Math.max(0, width - 2)) };
  const w = displayWidth(hints);
  if (w <= width - 6) return { lead: `${line} `, tail: " " + line.repeat(width - 5 - w) };
  return { lead: " ", tail: " ".repeat(Math.max(1, width - 3 - w)) };
}

export function Framed(p: FramedProps) {
  const pad = p.paddingX ?? 0;
  const inner = Math.max(1, p.width - 2 - 2 * pad);
  const note = p.note ?? "";
  const title = truncate(p.title, Math.max(1, inner - displayWidth(note)));
  const titleRow = displayWidth(title) + displayWidth(note);
  // Beside the title: two spaces, then hints; in the bottom border: "─ hints ─" between the corners.
  const { top, bottom } = splitHints(t(p.hint ?? ""), Math.max(0, inner - titleRow - 2), Math.max(0, p.width - 4), t(" · "));
  const style = glyphs()[p.border];
  const { left, right, line } = BOTTOM[style];
  const { lead, tail } = bottomBorder(bottom, p.width, line);
  return (
    <Box flexDirection="column" width={p.width} height={p.height} flexShrink={0}>
      <Box flexDirection="column" borderStyle={style} borderBottom={false} borderColor={p.borderColor} paddingX={pad} width={p.width} flexGrow={1} flexShrink={0}>
        <Text wrap="truncate">
          <Text color={p.titleColor} bold={p.titleBold}>
            {title}
          </Text>
          {note ? <Text dimColor>{note}</Text> : null}
          {top ? <Text dimColor>{"  " + top}</Text> : null}
        </Text>
        {p.children}
      </Box>
      <Text wrap="truncate">
        <Text color={p.borderColor}>{left + lead}</Text>
        {bottom ? <Text dimColor>{bottom}</Text> : null}
        <Text color={p.borderColor}>{tail + right}</Text>
      </Text>
    </Box>
  );
}
