/**
 * The compose box: recipient, the text with its cursor, soft-wrapped at the
 * box's width (up to `maxLines` rows, then it scrolls to keep the cursor in
 * view), the key hints, and the autocomplete list above it.
 */
import { Box, Text } from "ink";
import { graphemes } from "../../render/graphemes.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { EditorState } from "../compose-editor.js";
import { composeTextWidth, cursorRow, layoutText, type VisualLine } from "../compose-wrap.js";
import type { CompletionMenu } from "../hooks/use-compose.js";
import { useScreenState } from "../contexts.js";
import { displayKey } from "../keymap.js";
import { useTheme } from "../theme.js";
import { Autocomplete } from "./Autocomplete.js";
import { Framed } from "./Framed.js";

export interface ComposeProps {
  label: string;
  editor: EditorState & { menu?: CompletionMenu };
  width: number;
  maxLines: number;
  sending: boolean;
  error?: string;
}

function useHint(menuOpen: boolean): { hint: string; newline: string } {
  const { keymap, settings, ui } = useScreenState();
  const keys = (action: string, fallback: string) =>
    displayKey(keymap.keysFor(action)[0] ?? fallback).replace(/^((?:Ctrl|Alt)-)([a-z])$/, (_, m: string, c: string) => m + c.toUpperCase());
  const enterSends = settings.enterSends;
  const newline = enterSends ? keys("newline", "C-j") : keys("send", "enter");
  if (menuOpen) return { hint: `${keys("completeNext", "tab")}/${keys("completePrev", "S-tab")} choose · ${keys("completeAccept", "enter")} insert · ${keys("cancel", "escape")} close list`, newline };
  const send = enterSends ? keys("send", "enter") : keys("newlineOrSend", "M-enter");
  const topic = ui.compose?.editing && ui.compose.target.type === "stream" ? ` · ${keys("completeNext", "tab")} topic` : "";
  const editing = !!ui.compose?.editing;
  // The most needed first: a narrow box shows those and "…" for the rest.
  return { hint: `${send} ${editing ? "save" : "send"}${topic} · ${keys("cancel", "escape")} close · ${newline} new line · ${keys("externalEditor", "C-o")} editor${editing ? "" : ` · ${keys("sendLater", "C-s")} later · ${keys("insertSnippet", "C-n")} snippet`}`, newline };
}

/** A line of help while the message starts a poll or a to-do list (the server makes the widget from the text). */
export function widgetHint(text: string, newline: string): string | undefined {
  const m = /^\/(poll|todo)(?=\s|$)/.exec(text);
  if (!m) return undefined;
  return m[1] === "poll"
    ? `Poll: the question on this line, then one option per line (${newline} new line)`
    : `To-do list: the title on this line, then one task per line as "task: description" (${newline} new line)`;
}

/**
 * The visual lines the box shows: up to `maxLines` of them, the cursor's
 * among them (the box scrolls to keep it in view), and where the cursor is.
 */
export function composeView(text: string, cursor: number, textWidth: number, maxLines: number) {
  const lines = layoutText(text, textWidth);
  const row = cursorRow(lines, cursor);
  const start = Math.max(0, Math.min(row - maxLines + 1, lines.length - maxLines));
  return { lines, row, start, shown: lines.slice(start, start + maxLines) };
}

/** The cursor's line in three parts: before the cursor, the cluster under it (a space at the end), after it. */
export function cursorParts(text: string, line: VisualLine, cursor: number): { before: string; at: string; after: string } {
  const rest = text.slice(cursor, line.end);
  const first = rest === "" ? undefined : graphemes(rest)[Symbol.iterator]().next().value?.segment;
  const at = first ?? " ";
  return { before: text.slice(line.start, cursor), at, after: first === undefined ? "" : rest.slice(first.length) };
}

export function Compose({ label, editor, width, maxLines, sending, error }: ComposeProps) {
  const theme = useTheme();
  const menu = editor.menu;
  const { hint, newline } = useHint(!!menu);
  const { lines, row, start, shown } = composeView(editor.text, editor.cursor, composeTextWidth(width), maxLines);
  const widget = widgetHint(editor.text, newline);
  const more = lines.length > maxLines ? ` ${start + 1}-${start + shown.length}/${lines.length}` : "";
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {menu ? <Autocomplete items={menu.items} index={menu.index} width={width} /> : null}
      <Framed
        title={sanitizeInline(label)}
        titleColor={theme.accent}
        note={more}
        hint={sending ? "sending…" : hint}
        width={width}
        border="boxSingle"
        borderColor={error ? theme.error : theme.accent}
      >
        {widget ? (
          <Text color={theme.accent} wrap="truncate">
            {widget}
          </Text>
        ) : null}
        {error ? (
          <Text color={theme.error} wrap="truncate">
            {sanitizeInline(error)}
          </Text>
        ) : null}
        {shown.map((l, i) => {
          if (start + i !== row) return <Text key={i} wrap="truncate">{editor.text.slice(l.start, l.end) || " "}</Text>;
          const w = cursorParts(editor.text, l, editor.cursor);
          return (
            <Text key={i} wrap="truncate">
              {w.before}
              <Text inverse>{w.at}</Text>
              {w.after}
            </Text>
          );
        })}
      </Framed>
    </Box>
  );
}
