import { Box, Text } from "ink";
import type { EditorState } from "../compose-editor.js";
import { sanitizeInline } from "../../render/sanitize.js";

export interface ComposeProps {
  label: string;
  editor: EditorState;
  width: number;
  maxLines: number;
  sending: boolean;
  error?: string;
}

/** The compose box: recipient, the text with its cursor, and the send state. */
export function Compose({ label, editor, width, maxLines, sending, error }: ComposeProps) {
  const lines = editor.text.split("\n");
  const beforeCursor = editor.text.slice(0, editor.cursor).split("\n");
  const cursorLine = beforeCursor.length - 1;
  const col = (beforeCursor[cursorLine] ?? "").length;
  const start = Math.max(0, Math.min(cursorLine - maxLines + 1, lines.length - maxLines));
  const shown = lines.slice(start, start + maxLines);
  return (
    <Box flexDirection="column" borderStyle="single" borderColor={error ? "red" : "cyan"} width={width} flexShrink={0}>
      <Text wrap="truncate">
        <Text color="cyan">{label}</Text>
        <Text dimColor>{sending ? "  sending…" : "  Enter send · Ctrl-J new line · Esc close"}</Text>
      </Text>
      {error ? (
        <Text color="red" wrap="truncate">
          {sanitizeInline(error)}
        </Text>
      ) : null}
      {shown.map((l, i) => {
        if (start + i !== cursorLine) return <Text key={i} wrap="truncate-start">{l || " "}</Text>;
        const cp = l.codePointAt(col);
        const at = cp === undefined ? " " : String.fromCodePoint(cp);
        return (
          <Text key={i} wrap="truncate-start">
            {l.slice(0, col)}
            <Text inverse>{at}</Text>
            {l.slice(col + (cp === undefined ? 0 : at.length))}
          </Text>
        );
      })}
    </Box>
  );
}
