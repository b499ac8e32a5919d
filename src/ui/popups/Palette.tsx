/**
 * The command palette (Ctrl-K): type to filter every operation without a
 * key of its own, ↑/↓ (or Ctrl-P/Ctrl-N) to choose, Enter to run, Esc to close.
 */
import { Text } from "ink";
import { useRef, useState, type ReactNode } from "react";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { ActionContext } from "../app-context.js";
import { EMPTY_EDITOR, editorReducer, type EditorState } from "../compose-editor.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { fuzzyFilter } from "../palette-commands-match.js";
import { paletteCommands, type PaletteCommand } from "../palette-commands.js";
import { useTheme } from "../theme.js";
import type { Keymap } from "../keymap.js";
import { TextLine, lineEdit } from "./Form.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export function openPalette(ctx: ActionContext): void {
  const commands = paletteCommands(ctx);
  ctx.openPopup((close) => <Palette commands={commands} keymap={ctx.keymap} close={close} run={(c) => c.run(ctx)} />);
}

export function filterCommands(query: string, commands: readonly PaletteCommand[]): PaletteCommand[] {
  return fuzzyFilter(query, commands, (c) => `${c.title} ${c.detail ?? ""}`);
}

export function Palette({
  commands,
  keymap,
  close,
  run,
}: {
  commands: PaletteCommand[];
  keymap: Keymap;
  close: () => void;
  run: (c: PaletteCommand) => void;
}): ReactNode {
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [, setTick] = useState(0);
  const editor = useRef<EditorState>(EMPTY_EDITOR);
  const cursor = useRef(0);
  const matches = filterCommands(editor.current.text, commands);
  const room = Math.max(3, height - 5);

  useKeypress(
    (name, input) => {
      const list = filterCommands(editor.current.text, commands);
      const action = keymap.action("palette", name);
      if (action === "palette.close") close();
      else if (action === "palette.run") {
        const chosen = list[Math.min(cursor.current, list.length - 1)];
        if (chosen) {
          close();
          run(chosen);
        }
      } else if (action === "palette.down") cursor.current = Math.min(list.length - 1, cursor.current + 1);
      else if (action === "palette.up") cursor.current = Math.max(0, cursor.current - 1);
      else if (action === "palette.pageDown") cursor.current = Math.min(list.length - 1, cursor.current + room);
      else if (action === "palette.pageUp") cursor.current = Math.max(0, cursor.current - room);
      else {
        const edit = lineEdit(name, input, keymap);
        if (edit) {
          editor.current = editorReducer(editor.current, edit);
          cursor.current = 0;
        }
      }
      setTick((t) => t + 1);
      return true;
    },
    { priority: 50 },
  );

  const at = Math.min(cursor.current, Math.max(0, matches.length - 1));
  const start = Math.max(0, Math.min(at - Math.floor(room / 2), matches.length - room));
  return (
    <Popup title="Commands" hint={`type to filter · ${keymap.hint("palette.up").split(" / ")[0]}/${keymap.hint("palette.down").split(" / ")[0]} choose · ${keymap.hint("palette.run")} run · ${keymap.hint("palette.close").split(" / ")[0]} close`} width={width} height={height}>
      <Text>
        <Text color={theme.accent}>{`${glyphs().prompt} `}</Text>
        <TextLine editor={editor.current} focused width={width - 6} placeholder={t("rename, mute, status, folder…")} />
      </Text>
      {matches.length === 0 ? <Text dimColor>No command matches.</Text> : null}
      {matches.slice(start, start + room).map((c, i) => {
        const selected = start + i === at;
        return (
          <Text key={c.id} wrap="truncate" inverse={selected} bold={selected}>
            <RowMark kind={selected ? "selected" : "none"} inverse={selected} />
            {" " + sanitizeInline(c.title)}
            {c.detail ? <Text dimColor={!selected}>{"  " + sanitizeInline(c.detail)}</Text> : null}
          </Text>
        );
      })}
    </Popup>
  );
}
