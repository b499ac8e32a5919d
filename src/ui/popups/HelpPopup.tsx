/** The help screen, generated from the live keymap (so it never disagrees with the keys). */
import { Text } from "ink";
import { useState } from "react";
import type { ActionContext } from "../app-context.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { usePopupSize } from "./PopupHost.js";
import { Popup } from "./Popup.js";

const TITLES: Record<string, string> = { global: "Anywhere", sidebar: "Sidebar", messages: "Messages", compose: "Compose" };

export function openHelp(ctx: ActionContext): void {
  ctx.openPopup((close) => <HelpPopup rows={ctx.keymap.helpRows()} close={close} />);
}

function HelpPopup({ rows, close }: { rows: ReturnType<ActionContext["keymap"]["helpRows"]>; close: () => void }) {
  const { width, height } = usePopupSize();
  const [offset, setOffset] = useState(0);
  const lines: Array<{ title?: string; keys?: string; help?: string }> = [];
  let last = "";
  for (const r of rows) {
    if (r.context !== last) {
      lines.push({ title: TITLES[r.context] ?? r.context });
      last = r.context;
    }
    lines.push({ keys: r.keys, help: r.help });
  }
  const room = Math.max(1, height - 3);
  useKeypress(
    (name) => {
      if (name === "escape" || name === "?" || name === "q") close();
      else if (name === "j" || name === "down") setOffset((o) => Math.min(Math.max(0, lines.length - room), o + 1));
      else if (name === "k" || name === "up") setOffset((o) => Math.max(0, o - 1));
      else if (name === "J" || name === "pagedown" || name === " ") setOffset((o) => Math.min(Math.max(0, lines.length - room), o + room));
      else if (name === "K" || name === "pageup") setOffset((o) => Math.max(0, o - room));
      return true;
    },
    { priority: 50 },
  );
  return (
    <Popup title="termchat keys" hint="j/k scroll · Esc or ? close" width={width} height={height}>
      {lines.slice(offset, offset + room).map((l, i) =>
        l.title ? (
          <Text key={i} bold color="cyan">
            {l.title}
          </Text>
        ) : (
          <Text key={i} wrap="truncate">
            {"  " + (l.keys ?? "").padEnd(24) + (l.help ?? "")}
          </Text>
        ),
      )}
    </Popup>
  );
}
