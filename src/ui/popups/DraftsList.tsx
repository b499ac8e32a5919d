/**
 * D: every unsent text — the local journal's drafts (synced with the
 * server's), edits in progress, and server drafts this client has not taken
 * (synchronisation off, another client's) — newest first. Enter resumes one
 * in its conversation; x deletes it.
 */
import { Box, Text } from "ink";
import { useEffect, useState } from "react";
import { dmParticipants } from "../../model/narrow.js";
import { narrowTitle } from "../../model/selectors.js";
import type { Store } from "../../model/store.js";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { draftKey, type JournalView, type SendTarget } from "../../sync/account-handle.js";
import type { ActionContext } from "../app-context.js";
import { useScreenActions, useScreenState, type ScreenActions } from "../contexts.js";
import { targetOfMessage } from "../compose-rules.js";
import { targetNarrow } from "../../model/narrow.js";
import { useList, windowStart } from "../list/list-part.js";
import { useTheme } from "../theme.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export interface DraftRow {
  /** Journal key, or `server:<id>`. */
  key: string;
  target: SendTarget | undefined;
  text: string;
  updatedAt: number;
  /** A server draft the journal does not hold. */
  serverId?: number;
  /** An edit of this message in progress. */
  editing?: number;
}

export function draftRows(store: Store, journal: JournalView): DraftRow[] {
  const rows: DraftRow[] = [];
  const keys = new Set<string>();
  const serverIds = new Set<number>();
  for (const e of journal.all()) {
    const edit = /^edit:(\d+)$/.exec(e.key);
    if (edit) {
      const id = Number(edit[1]);
      const m = store.messages.byId.get(id);
      if (m && m.content === e.text) continue; // opened for editing, nothing changed
      rows.push({ key: e.key, target: m ? targetOfMessage(store, m) : undefined, text: e.text, updatedAt: e.updatedAt, editing: id });
      continue;
    }
    keys.add(e.key);
    if (e.serverId !== undefined) serverIds.add(e.serverId);
    rows.push({ key: e.key, target: journal.targetOf(e.key), text: e.text, updatedAt: e.updatedAt });
  }
  for (const d of store.personal.drafts.values()) {
    if (d.id === undefined || serverIds.has(d.id) || !d.content) continue;
    let target: SendTarget | undefined;
    if (d.type === "stream" && d.to[0] !== undefined) target = { type: "stream", channelId: d.to[0], topic: d.topic };
    else if (d.type === "private") target = { type: "direct", userIds: dmParticipants(d.to, store.selfId) };
    if (target && keys.has(draftKey(target))) continue;
    rows.push({ key: `server:${d.id}`, target, text: d.content, updatedAt: (d.timestamp ?? 0) * 1000, serverId: d.id });
  }
  return rows.sort((a, b) => b.updatedAt - a.updatedAt);
}

function rowTitle(store: Store, r: DraftRow): string {
  const where = r.target ? narrowTitle(store, targetNarrow(r.target)) : "(no conversation)";
  return (r.editing !== undefined ? "Edit in " : "") + sanitizeInline(where);
}

function age(ms: number, now: number): string {
  const min = Math.max(0, Math.round((now - ms) / 60_000));
  if (min < 1) return "just now";
  if (min < 60) return `${min} min ago`;
  if (min < 48 * 60) return `${Math.round(min / 60)} h ago`;
  return `${Math.round(min / 1440)} days ago`;
}

export function DraftsList({ close }: { close: () => void }) {
  const { store, account, keymap } = useScreenState();
  const actions = useScreenActions();
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [, setTick] = useState(0);
  useEffect(() => account.subscribe((c) => c.kind === "journal" && setTick((t) => t + 1)), [account]);
  const rows = draftRows(store, account.journal);
  const room = Math.max(1, Math.floor((height - 3) / 2));
  const list = useList({
    scope: "popup.drafts",
    keymap,
    count: () => draftRows(store, account.journal).length,
    page: room,
    onAction: (action, at) => {
      const row = draftRows(store, account.journal)[at];
      if (action === "drafts.close") close();
      else if (action === "drafts.resume" && row) {
        close();
        resumeDraft(actions, row);
      } else if (action === "drafts.delete" && row) {
        if (row.serverId !== undefined) {
          const id = row.serverId;
          actions.attempt(() => account.actions.deleteServerDraft(id), "Draft deleted.");
        } else {
          const key = row.key;
          actions.attempt(async () => account.actions.deleteLocalDraft(key), "Draft deleted.");
        }
      } else return false;
      return true;
    },
  });
  const at = list.at(rows.length);
  const offset = windowStart(at, rows.length, room);

  const now = Date.now();
  return (
    <Popup title={`Drafts (${rows.length})`} hint={`${keymap.hint("drafts.resume")} resume · ${keymap.hint("drafts.delete")} delete · ${keymap.hint("drafts.close").replace(" / ", " or ").split(" or ")[0]} close`} width={width} height={height}>
      {rows.length === 0 ? <Text dimColor>No drafts. Text you start and close (Esc) waits here.</Text> : null}
      {rows.slice(offset, offset + room).map((r, i) => {
        const on = offset + i === at;
        const first = sanitizeInline(r.text.split("\n").find((l) => l.trim()) ?? "");
        return (
          <Box key={r.key} flexDirection="column">
            <Text wrap="truncate" inverse={on}>
              <RowMark kind={on ? "selected" : "none"} inverse={on} />{" "}
              <Text bold color={on ? undefined : theme.recipient}>
                {rowTitle(store, r)}
              </Text>
              <Text dimColor>{t`  ${age(r.updatedAt, now)}${r.serverId !== undefined ? " · server" : ""}`}</Text>
            </Text>
            <Text wrap="truncate">{"    " + (first || " ")}</Text>
          </Box>
        );
      })}
    </Popup>
  );
}

/** Opens a draft's conversation with its text in the compose box. */
export function resumeDraft(ctx: Pick<ScreenActions, "notify" | "openNarrow" | "openCompose">, row: DraftRow): void {
  const t = row.target;
  if (!t) {
    ctx.notify(row.editing !== undefined ? "That message is not loaded: open its conversation, select it and press e." : "That draft has no conversation.", "error");
    return;
  }
  ctx.openNarrow(targetNarrow(t), { focus: "messages", select: row.editing });
  if (row.editing !== undefined) ctx.openCompose(t, { editing: { messageId: row.editing } });
  else ctx.openCompose(t, row.serverId !== undefined ? { initialText: row.text } : {});
}

export function openDrafts(ctx: ActionContext): void {
  ctx.openPopup((close) => <DraftsList close={close} />);
}
