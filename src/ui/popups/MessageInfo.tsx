/**
 * Message info (`i`): who sent it and when, where, its reactions, who read it, its raw
 * Markdown source (GET /messages/{id} with apply_markdown=false) and its
 * edit history (GET /messages/{id}/history: each edit as a word diff and
 * each move, edit-history-lines.ts). Scrolls with j/k (the list part);
 * everything from the server is sanitized.
 */
import { Text } from "ink";
import { useEffect, useState } from "react";
import type { MessageHistoryResponse } from "../../api/schemas/responses.js";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { formatDateTime } from "../../render/time.js";
import { wrapText } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useScreenState } from "../contexts.js";
import { bodyBlock, historyLines, type InfoLine } from "../edit-history-lines.js";
import { displayKey } from "../keymap.js";
import { useList } from "../list/list-part.js";
import { reactionGroups, recipientLabel } from "../message-layout.js";
import { useTheme } from "../theme.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";
import { useReadReceipts } from "./read-receipts.js";

export function openMessageInfo(ctx: ActionContext, messageId: number): void {
  ctx.openPopup((close) => <MessageInfo messageId={messageId} close={close} />);
}

interface Loaded {
  raw?: string;
  rawError?: string;
  history?: MessageHistoryResponse["message_history"];
  historyError?: string;
}

function MessageInfo({ messageId, close }: { messageId: number; close: () => void }) {
  const { store, account, keymap } = useScreenState();
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [loaded, setLoaded] = useState<Loaded>({});
  const receipts = useReadReceipts(account, store, messageId);

  useEffect(() => {
    let live = true;
    void account.actions.messageSource(messageId).then(
      (r) => live && setLoaded((l) => (r.ok ? { ...l, raw: r.value } : { ...l, rawError: r.error.message })),
    );
    void account.actions.messageHistory(messageId).then(
      (r) => live && setLoaded((l) => (r.ok ? { ...l, history: r.value } : { ...l, historyError: r.error.message })),
    );
    return () => {
      live = false;
    };
  }, [account, messageId]);

  const inner = Math.max(20, width - 4);
  const m = store.messages.byId.get(messageId);
  const lines: InfoLine[] = [];
  if (m) {
    const sender = store.users.get(m.sender_id);
    lines.push({ text: `From: ${sanitizeInline(m.sender_full_name)} <${sanitizeInline(sender?.email ?? m.sender_email)}>` });
    lines.push({ text: `Sent: ${formatDateTime(m.timestamp)}` });
    lines.push({ text: `In:   ${recipientLabel(store, m)}` });
    const flags = [
      `id ${m.id}`,
      store.messages.starred.has(m.id) ? `${glyphs().star} starred` : "",
      m.last_edit_timestamp ? `edited ${formatDateTime(m.last_edit_timestamp)}` : "",
      m.last_moved_timestamp ? `moved ${formatDateTime(m.last_moved_timestamp)}` : "",
    ].filter(Boolean);
    lines.push({ text: flags.join(t(" · ")), kind: "dim" });
    for (const g of reactionGroups(store, m)) {
      const names = g.userIds.map((id) => (id === store.selfId ? "you" : sanitizeInline(store.userName(id))));
      lines.push({ text: `${g.label} ${g.count}: ${names.join(", ")}` });
    }
  } else {
    lines.push({ text: `Message ${messageId} (no longer loaded here)`, kind: "dim" });
  }
  lines.push(...receipts);
  lines.push({ text: "Raw source", kind: "heading" });
  if (loaded.raw !== undefined) lines.push(...bodyBlock(loaded.raw, inner));
  else lines.push({ text: loaded.rawError ? `  Could not load: ${sanitizeInline(loaded.rawError)}` : t("  Loading…"), kind: "dim" });
  lines.push({ text: "Edit history", kind: "heading" });
  if (loaded.history) {
    if (loaded.history.length <= 1) lines.push({ text: "  Never edited or moved.", kind: "dim" });
    lines.push(...historyLines(store, loaded.history, m?.type === "stream" ? m.stream_id : undefined, inner));
  } else {
    lines.push({ text: loaded.historyError ? `  Could not load: ${sanitizeInline(loaded.historyError)}` : t("  Loading…"), kind: "dim" });
  }

  // Long headings and details wrap (bodies are wrapped already, with their indentation).
  const shown = lines.flatMap((l) => (l.kind === "body" || l.kind === "diff" ? [l] : wrapText(l.text, inner).split("\n").map((text) => ({ ...l, text }))));
  const room = Math.max(1, height - 3);
  // A scrolled text: the list's cursor is the first line shown.
  const scrolls = Math.max(0, shown.length - room) + 1;
  const list = useList({ scope: "popup.info", keymap, count: () => scrolls, page: room, onAction: (action) => action === "info.close" && (close(), true) });
  const at = list.at(scrolls);

  return (
    <Popup title="Message info" hint={`j/k scroll · ${displayKey(keymap.keysFor("info.close")[0] ?? "escape")} close`} width={width} height={height}>
      {shown.slice(at, at + room).map((l, i) => (
        <Text key={i} wrap="truncate" bold={l.kind === "heading"} color={l.kind === "heading" ? theme.accent : undefined} dimColor={l.kind === "dim"}>
          {l.runs
            ? l.runs.map((r, k) => (
                <Text key={k} color={r.op === "insert" ? theme.ok : r.op === "delete" ? theme.error : undefined} strikethrough={r.op === "delete"} underline={r.op === "insert"}>
                  {r.text}
                </Text>
              ))
            : l.text}
        </Text>
      ))}
    </Popup>
  );
}
