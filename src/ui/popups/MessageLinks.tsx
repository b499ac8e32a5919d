/**
 * The links and attachments of one message: choose one to open it (in the
 * browser, or copied where no browser can appear), copy it, or save it (to
 * the downloads directory, or a path asked for).
 */
import { Text } from "ink";
import type { ReactNode } from "react";
import type { Message } from "../../api/schemas/common.js";
import { messageLinks, type MessageLink } from "../../render/message-links.js";
import { glyphs } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { downloadsDir } from "../../sync/file-paths.js";
import type { ActionContext } from "../app-context.js";
import { copyLink, openLink, saveWithProgress } from "../file-transfers.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { useTheme } from "../theme.js";
import { openForm } from "./Form.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";
import { useRefState } from "../hooks/use-ref-state.js";

export function openMessageLinks(ctx: ActionContext, m: Message): void {
  const links = messageLinks(m.content, ctx.store.realm.url);
  if (links.length === 0) return ctx.notify("This message has no links or attachments.");
  ctx.openPopup((close) => <MessageLinks ctx={ctx} links={links} close={close} />);
}

/** Asks where to save (the downloads directory to start with), then saves. */
export function askSave(ctx: ActionContext, link: string, label: string): void {
  openForm(ctx, {
    title: `Save ${sanitizeInline(label)}`,
    fields: [{ kind: "text", name: "path", label: "Save to (a directory or a file name)", initial: `${downloadsDir()}/` }],
    onSubmit: (v) => void saveWithProgress(ctx, link, label, typeof v["path"] === "string" ? v["path"] : undefined),
  });
}

export function MessageLinks({ ctx, links, close }: { ctx: ActionContext; links: MessageLink[]; close: () => void }): ReactNode {
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [cursor, setCursor] = useRefState(0);
  const { keymap } = ctx;

  useKeypress(
    (name) => {
      const at = Math.min(cursor(), links.length - 1);
      const link = links[at]!;
      const action = keymap.action("popup.links", name);
      if (action === "links.close") close();
      else if (action === "links.down") setCursor(Math.min(links.length - 1, at + 1));
      else if (action === "links.up") setCursor(Math.max(0, at - 1));
      else if (action === "links.open") {
        close();
        void openLink(ctx, link.url, link.label);
      } else if (action === "links.copy") {
        close();
        copyLink(ctx, link.url, link.label);
      } else if (action === "links.save") {
        close();
        void saveWithProgress(ctx, link.url, link.label);
      } else if (action === "links.saveAs") {
        close();
        askSave(ctx, link.url, link.label);
      }
      return true;
    },
    { priority: 50 },
  );

  const at = Math.min(cursor(), links.length - 1);
  const room = Math.max(1, height - 4);
  const offset = Math.max(0, Math.min(at - Math.floor(room / 2), links.length - room));
  const hint = `${keymap.hint("links.open")} open · ${keymap.hint("links.save")} save · ${keymap.hint("links.saveAs")} save as · ${keymap.hint("links.copy")} copy · ${keymap.hint("links.close").split(" / ")[0]} close`;
  return (
    <Popup title={`Links and files (${links.length})`} hint={hint} width={width} height={Math.min(height, links.length + 4)}>
      {links.slice(offset, offset + room).map((l, i) => {
        const on = offset + i === at;
        return (
          <Text key={l.url} wrap="truncate" inverse={on}>
            <RowMark kind={on ? "selected" : "none"} inverse={on} />{" "}
            <Text color={on ? undefined : l.upload ? theme.accent : undefined}>{`${l.upload ? glyphs().upload : glyphs().link} `}</Text>
            <Text bold>{sanitizeInline(l.label)}</Text>
            {l.label !== l.url ? <Text dimColor>{"  " + sanitizeInline(l.url)}</Text> : null}
          </Text>
        );
      })}
    </Popup>
  );
}
