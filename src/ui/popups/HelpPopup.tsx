/** The help screen, generated from the live keymap (so it never disagrees with the keys). */
import { Text } from "ink";
import { useState } from "react";
import { displayWidth, truncate, wrapText } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { usePopupSize } from "./PopupHost.js";
import { useTheme } from "../theme.js";
import { Popup } from "./Popup.js";

const TITLES: Record<string, string> = { global: "Anywhere", sidebar: "Sidebar", messages: "Messages", compose: "Compose" };

export function openHelp(ctx: ActionContext): void {
  ctx.openPopup((close) => <HelpPopup rows={ctx.keymap.helpRows()} close={close} />);
}

function HelpPopup({ rows, close }: { rows: ReturnType<ActionContext["keymap"]["helpRows"]>; close: () => void }) {
  const { width, height } = usePopupSize();
  const theme = useTheme();
  const [offset, setOffset] = useState(0);
  // The keys' column is as wide as its widest entry (within reason); a description longer
  // than the room beside it goes on over more lines, so nothing is cut off at 80 columns.
  const inner = Math.max(20, width - 4);
  const keysWidth = Math.min(Math.max(...rows.map((r) => displayWidth(r.keys)), 4) + 2, Math.floor(inner / 3));
  const helpWidth = Math.max(10, inner - 2 - keysWidth);
  const lines: Array<{ title?: string; text?: string }> = [];
  let last = "";
  for (const r of rows) {
    if (r.context !== last) {
      lines.push({ title: TITLES[r.context] ?? r.context });
      last = r.context;
    }
    const keys = truncate(r.keys, keysWidth - 1);
    wrapText(r.help, helpWidth)
      .split("\n")
      .forEach((part, i) => {
        const left = i === 0 ? keys : "";
        lines.push({ text: "  " + left + " ".repeat(Math.max(0, keysWidth - displayWidth(left))) + part });
      });
  }
  const room = Math.max(1, height - 3);
  const maxOffset = Math.max(0, lines.length - room);
  useKeypress(
    (name) => {
      if (name === "escape" || name === "?" || name === "q") close();
      else if (name === "j" || name === "down") setOffset((o) => Math.min(maxOffset, o + 1));
      else if (name === "k" || name === "up") setOffset((o) => Math.max(0, o - 1));
      else if (name === "J" || name === "pagedown" || name === " ") setOffset((o) => Math.min(maxOffset, o + room));
      else if (name === "K" || name === "pageup") setOffset((o) => Math.max(0, o - room));
      else if (name === "g" || name === "home") setOffset(0);
      else if (name === "G" || name === "end") setOffset(maxOffset);
      return true;
    },
    { priority: 50 },
  );
  return (
    <Popup title="termchat keys" hint="j/k scroll · Esc or ? close" width={width} height={height}>
      {lines.slice(offset, offset + room).map((l, i) =>
        l.title ? (
          <Text key={i} bold color={theme.accent}>
            {l.title}
          </Text>
        ) : (
          <Text key={i} wrap="truncate">
            {l.text}
          </Text>
        ),
      )}
    </Popup>
  );
}
