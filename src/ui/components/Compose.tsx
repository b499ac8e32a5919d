/** The compose box: recipient, the text with its cursor (up to `maxLines` rows, then it scrolls), the key hints, and the autocomplete list above it. */
import { Box, Text } from "ink";
import stringWidth from "../../render/string-width.js";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { EditorState } from "../compose-editor.js";
import type { CompletionMenu } from "../hooks/use-compose.js";
import { useScreenState } from "../contexts.js";
import { displayKey } from "../keymap.js";
import { useTheme } from "../theme.js";
import { Autocomplete } from "./Autocomplete.js";

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
  return { hint: `${send} ${editing ? "save" : "send"}${topic} · ${newline} new line · ${keys("externalEditor", "C-o")} editor · ${keys("cancel", "escape")} close`, newline };
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
 * The cursor's line, cut to `room` columns so that the cursor stays visible:
 * the text before it, the character under it, and the text after it.
 */
export function cursorWindow(line: string, col: number, room: number): { before: string; at: string; after: string } {
  const cp = line.codePointAt(col);
  const at = cp === undefined ? " " : String.fromCodePoint(cp);
  let before = line.slice(0, col);
  let after = line.slice(col + (cp === undefined ? 0 : at.length));
  const atWidth = Math.max(1, stringWidth(at));
  if (stringWidth(before) + atWidth + stringWidth(after) <= room) return { before, at, after };
  // Drop characters from the start of what precedes the cursor until it fits with a little context after it.
  const chars = [...before];
  const keepAfter = Math.min(stringWidth(after), Math.max(0, Math.floor(room / 4)));
  let w = stringWidth(before);
  while (chars.length && w + atWidth + keepAfter + 1 > room) w -= stringWidth(chars.shift() ?? "");
  before = (chars.length < [...line.slice(0, col)].length ? "…" : "") + chars.join("");
  const left = room - stringWidth(before) - atWidth;
  const out: string[] = [];
  let aw = 0;
  for (const ch of after) {
    const cw = stringWidth(ch);
    if (aw + cw > Math.max(0, left - 1)) {
      out.push("…");
      break;
    }
    out.push(ch);
    aw += cw;
  }
  after = out.join("");
  return { before, at, after };
}

export function Compose({ label, editor, width, maxLines, sending, error }: ComposeProps) {
  const theme = useTheme();
  const menu = editor.menu;
  const { hint, newline } = useHint(!!menu);
  const lines = editor.text.split("\n");
  const beforeCursor = editor.text.slice(0, editor.cursor).split("\n");
  const cursorLine = beforeCursor.length - 1;
  const col = (beforeCursor[cursorLine] ?? "").length;
  const start = Math.max(0, Math.min(cursorLine - maxLines + 1, lines.length - maxLines));
  const shown = lines.slice(start, start + maxLines);
  const widget = widgetHint(editor.text, newline);
  const more = lines.length > maxLines ? ` ${start + 1}-${start + shown.length}/${lines.length}` : "";
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {menu ? <Autocomplete items={menu.items} index={menu.index} width={width} /> : null}
      <Box flexDirection="column" borderStyle={glyphs().boxSingle} borderColor={error ? theme.error : theme.accent} width={width} flexShrink={0}>
        <Text wrap="truncate">
          <Text color={theme.accent}>{sanitizeInline(label)}</Text>
          <Text dimColor>{more}</Text>
          <Text dimColor>{t(sending ? "  sending…" : "  " + hint)}</Text>
        </Text>
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
          if (start + i !== cursorLine) return <Text key={i} wrap="truncate">{l || " "}</Text>;
          const w = cursorWindow(l, col, Math.max(4, width - 2));
          return (
            <Text key={i} wrap="truncate">
              {w.before}
              <Text inverse>{w.at}</Text>
              {w.after}
            </Text>
          );
        })}
      </Box>
    </Box>
  );
}
