/**
 * Your uploaded files (GET /attachments): name, size, when, and the
 * messages that use each; open, save, or delete one (after a confirmation).
 */
import { Text } from "ink";
import { useEffect, type ReactNode } from "react";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { formatSize, type Attachment } from "../../sync/actions/files.js";
import type { ActionContext } from "../app-context.js";
import { openLink, saveWithProgress } from "../file-transfers.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { openConfirm } from "./Confirm.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";
import { useRefState } from "../hooks/use-ref-state.js";

type Loaded = { kind: "loading" } | { kind: "failed"; message: string } | { kind: "ready"; list: Attachment[]; used?: number };

export function openAttachments(ctx: ActionContext): void {
  ctx.openPopup((close) => <Attachments ctx={ctx} close={close} />);
}

export function attachmentRow(a: Attachment): string {
  const n = a.messages.length;
  const day = new Date(a.create_time).toISOString().slice(0, 10);
  return t`${sanitizeInline(a.name)}  ${formatSize(a.size)} · ${day} · ${n === 0 ? "in no message" : n === 1 ? "in 1 message" : `in ${n} messages`}`;
}

export function Attachments({ ctx, close }: { ctx: ActionContext; close: () => void }): ReactNode {
  const { width, height } = usePopupSize();
  const [state, setState] = useRefState<Loaded>({ kind: "loading" });
  const [cursor, setCursor] = useRefState(0);
  const { keymap, account } = ctx;

  const load = () =>
    void account.actions.myAttachments().then((r) =>
      setState(r.ok ? { kind: "ready", list: [...r.value.attachments].sort((a, b) => b.create_time - a.create_time), used: r.value.used } : { kind: "failed", message: r.error.message }),
    );
  useEffect(load, [account]);

  useKeypress(
    (name) => {
      const s = state();
      const list = s.kind === "ready" ? s.list : [];
      const at = Math.min(cursor(), Math.max(0, list.length - 1));
      const a = list[at];
      const action = keymap.action("popup.files", name);
      if (action === "files.close") close();
      else if (action === "files.down") setCursor(Math.min(Math.max(0, list.length - 1), at + 1));
      else if (action === "files.up") setCursor(Math.max(0, at - 1));
      else if (a && action === "files.open") void openLink(ctx, `/user_uploads/${a.path_id}`, a.name);
      else if (a && action === "files.save") void saveWithProgress(ctx, `/user_uploads/${a.path_id}`, a.name);
      else if (a && action === "files.delete") {
        const n = a.messages.length;
        openConfirm(ctx, {
          title: "Delete file",
          lines: [`Delete ${a.name} (${formatSize(a.size)})?`, n ? `${n === 1 ? "One message links" : `${n} messages link`} it: the link${n === 1 ? "" : "s"} will stop working.` : "No message links it."],
          action: "delete",
          danger: true,
          onConfirm: () =>
            void account.actions.removeAttachment(a.id).then((r) => {
              ctx.notify(r.ok ? `Deleted ${sanitizeInline(a.name)}` : `Could not delete ${sanitizeInline(a.name)}: ${r.error.message}`, r.ok ? "info" : "error");
              load();
            }),
        });
      }
      return true;
    },
    { priority: 50 },
  );

  const s = state();
  const list = s.kind === "ready" ? s.list : [];
  const at = Math.min(cursor(), Math.max(0, list.length - 1));
  const room = Math.max(1, height - 4);
  const offset = Math.max(0, Math.min(at - Math.floor(room / 2), list.length - room));
  const hint = `${keymap.hint("files.open")} open · ${keymap.hint("files.save")} save · ${keymap.hint("files.delete")} delete · ${keymap.hint("files.close").split(" / ")[0]} close`;
  const title = s.kind === "ready" ? `Your files (${list.length}${s.used !== undefined ? `, ${formatSize(s.used)} in all` : ""})` : "Your files";
  return (
    <Popup title={title} hint={hint} width={width} height={Math.min(height, Math.max(list.length, 1) + 4)}>
      {s.kind === "loading" ? <Text dimColor>{t("Loading…")}</Text> : null}
      {s.kind === "failed" ? <Text wrap="truncate">{`Could not list your files: ${sanitizeInline(s.message)}`}</Text> : null}
      {s.kind === "ready" && list.length === 0 ? <Text dimColor>You have not uploaded any files.</Text> : null}
      {list.slice(offset, offset + room).map((a, i) => (
        <Text key={a.id} wrap="truncate" inverse={offset + i === at}>
          <RowMark kind={offset + i === at ? "selected" : "none"} inverse={offset + i === at} />
          {" " + attachmentRow(a)}
        </Text>
      ))}
    </Popup>
  );
}
