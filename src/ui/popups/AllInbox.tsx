/**
 * The combined Inbox: the unread conversations of every open organization,
 * grouped under each organization's row with its total. Enter on a
 * conversation puts its organization on screen with the conversation open;
 * on an organization's row, that organization.
 */
import { Text } from "ink";
import type { ReactNode } from "react";
import { glyphs } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import { allInboxRows, type AllInboxRow } from "../all-inbox.js";
import type { ActionContext } from "../app-context.js";
import { RowMark } from "../components/RowMark.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { useTheme } from "../theme.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";
import { useRefState } from "../hooks/use-ref-state.js";

export function openAllInbox(ctx: ActionContext): void {
  const orgs = ctx.organizations;
  if (!orgs || orgs.list().length < 2) return ctx.notify("Only one organization is open: its Inbox is I");
  const rows = allInboxRows(orgs.stores());
  ctx.openPopup((close) => <AllInbox ctx={ctx} rows={rows} close={close} />);
}

function AllInbox({ ctx, rows, close }: { ctx: ActionContext; rows: AllInboxRow[]; close: () => void }): ReactNode {
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [cursor, setCursor] = useRefState(0);
  const { keymap } = ctx;
  const openRow = (row: AllInboxRow | undefined) => {
    close();
    if (row) ctx.organizations?.show(row.key, row.kind === "conversation" ? row.narrow : undefined);
  };
  // The popup takes every key: its own move, open or close; the others do nothing while it is up.
  useKeypress(
    (name) => {
      const action = keymap.action("popup.allInbox", name);
      const at = Math.min(cursor(), rows.length - 1);
      const step = action === "allInbox.down" ? 1 : action === "allInbox.up" ? -1 : 0;
      if (step) setCursor(Math.max(0, Math.min(rows.length - 1, at + step)));
      else if (action === "allInbox.open") openRow(rows[at]);
      else if (action === "allInbox.close") close();
      return true;
    },
    { priority: 50 },
  );
  const at = Math.min(cursor(), rows.length - 1);
  const room = Math.max(1, height - 4);
  const offset = Math.max(0, Math.min(at - Math.floor(room / 2), rows.length - room));
  const inner = Math.max(10, width - 6);
  const total = rows.reduce((n, r) => n + (r.kind === "org" ? r.unread : 0), 0);
  const hint = `${keymap.hint("allInbox.open")} open · ${keymap.hint("allInbox.close").split(" / ")[0]} close`;
  return (
    <Popup title={`Unread in every organization (${total})`} hint={hint} width={width} height={Math.min(height, rows.length + 4)}>
      {rows.slice(offset, offset + room).map((r, i) => {
        const on = offset + i === at;
        const count = r.unread > 0 ? String(r.unread) : "";
        const label = r.kind === "org" ? `${glyphs().expanded} ${r.label}${r.trouble ? ` ${glyphs().cross} ${r.trouble}` : ""}` : `   ${r.label}`;
        const shown = truncate(sanitizeInline(label), inner - count.length - 1);
        return (
          <Text key={`${r.key}:${offset + i}`} wrap="truncate" inverse={on} bold={r.kind === "org"}>
            <RowMark kind={on ? "selected" : "none"} inverse={on} />
            <Text color={on ? undefined : r.kind === "org" ? (r.trouble ? theme.warn : theme.accent) : undefined}>{shown}</Text>
            {" ".repeat(Math.max(1, inner - displayWidth(shown) - count.length))}
            <Text color={on ? undefined : r.kind === "conversation" && r.mentioned ? theme.mention : theme.count}>{count}</Text>
          </Text>
        );
      })}
    </Popup>
  );
}
