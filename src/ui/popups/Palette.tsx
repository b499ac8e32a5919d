/**
 * The command palette (Ctrl-K): type to filter every operation without a
 * key of its own, ↑/↓ (or Ctrl-P/Ctrl-N) to choose, Enter to run, Esc to close.
 */
import { Text } from "ink";
import type { ReactNode } from "react";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { ActionContext } from "../app-context.js";
import { useList, windowStart } from "../list/list-part.js";
import { fuzzyFilter } from "../palette-commands-match.js";
import { paletteCommands, type PaletteCommand } from "../palette-commands.js";
import { useTheme } from "../theme.js";
import type { Keymap } from "../keymap.js";
import { TextLine } from "./Form.js";
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
  const room = Math.max(3, height - 5);
  const list = useList({
    scope: "palette",
    keymap,
    filter: true,
    count: () => filterCommands(list.model.filter.text, commands).length,
    page: room,
    onAction: (action, at) => {
      const n = filterCommands(list.model.filter.text, commands).length;
      if (action === "palette.close") close();
      else if (action === "palette.next") list.model.at = Math.min(n - 1, at + 1);
      else if (action === "palette.previous") list.model.at = Math.max(0, at - 1);
      else if (action === "palette.run") {
        const chosen = filterCommands(list.model.filter.text, commands)[at];
        if (chosen) {
          close();
          run(chosen);
        }
      } else return false;
      return true;
    },
  });
  const matches = filterCommands(list.model.filter.text, commands);
  const at = list.at(matches.length);
  const start = windowStart(at, matches.length, room);
  return (
    <Popup title="Commands" hint={`type to filter · ${keymap.hint("filter.up").split(" / ")[0]}/${keymap.hint("filter.down").split(" / ")[0]} choose · ${keymap.hint("palette.run")} run · ${keymap.hint("palette.close").split(" / ")[0]} close`} width={width} height={height}>
      <Text>
        <Text color={theme.accent}>{`${glyphs().prompt} `}</Text>
        <TextLine editor={list.model.filter} focused width={width - 6} placeholder={t("rename, mute, status, folder…")} />
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
