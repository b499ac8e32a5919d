/**
 * Picks where a new message goes: one or more people (x: a new direct
 * message) or a channel (c outside a channel: then its topic). Typing
 * filters; ↑/↓ move; Tab adds the highlighted person to the recipients;
 * Enter chooses.
 */
import { Text } from "ink";
import { dmParticipants } from "../../model/narrow.js";
import { channelRows } from "../../model/selectors.js";
import type { Store } from "../../model/store.js";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { ActionContext } from "../app-context.js";
import { useFeatureContext } from "../contexts.js";
import { nameMatches } from "../autocomplete.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { usePresenceVersion } from "../hooks/use-store.js";
import { useTheme } from "../theme.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";
import { openNewTopic, useLineInput, useRefState } from "./TopicPrompt.js";

interface Row {
  id: number;
  label: string;
  detail?: string;
}

const PRESENCE_RANK: Record<string, number> = { active: 0, idle: 1, offline: 2 };

export function peopleRows(store: Store, filter: string, nowMs = Date.now()): Row[] {
  // Part of the list would leave people out: none until the whole user list is in.
  if (!store.people.complete) return [];
  const q = filter.trim().toLowerCase();
  return [...store.users.values()]
    .filter((u) => u.is_active !== false && (nameMatches(u.full_name, q) || u.email.toLowerCase().startsWith(q)))
    .sort(
      (a, b) =>
        Number(a.user_id === store.selfId) - Number(b.user_id === store.selfId) ||
        Number(a.is_bot) - Number(b.is_bot) ||
        (PRESENCE_RANK[store.presenceStatus(a.user_id, nowMs)] ?? 2) - (PRESENCE_RANK[store.presenceStatus(b.user_id, nowMs)] ?? 2) ||
        a.full_name.localeCompare(b.full_name),
    )
    .map((u) => ({ id: u.user_id, label: u.full_name + (u.user_id === store.selfId ? " (you)" : ""), detail: u.email }));
}

export function channelChoices(store: Store, filter: string): Row[] {
  const q = filter.trim().toLowerCase();
  return channelRows(store)
    .filter((c) => !c.archived && nameMatches(c.name, q))
    .map((c) => ({ id: c.channelId, label: `#${c.name}`, detail: c.private ? "private" : undefined }));
}

export interface PickRecipientProps {
  mode: "people" | "channel";
  title: string;
  onPick: (ids: number[], ctx: ActionContext) => void;
  close: () => void;
}

export function PickRecipient({ mode, title, onPick, close }: PickRecipientProps) {
  const ctx = useFeatureContext();
  usePresenceVersion(ctx.store); // the order (active people first) follows presence
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const input = useLineInput();
  const [cursor, setCursor] = useRefState(0);
  const [chosen, setChosen] = useRefState<number[]>([]);
  const room = Math.max(1, height - (mode === "people" ? 6 : 5));
  /** The rows for what is typed now and the highlighted one — from the refs, so always current. */
  const current = () => {
    const rows = mode === "people" ? peopleRows(ctx.store, input.value.current) : channelChoices(ctx.store, input.value.current);
    return { rows, at: Math.min(cursor(), Math.max(0, rows.length - 1)) };
  };
  const filter = input.value.current;
  const { rows, at } = current();
  const offset = Math.max(0, Math.min(at - Math.floor(room / 2), rows.length - room));

  useKeypress(
    (name, text) => {
      const now = current();
      const last = Math.max(0, now.rows.length - 1);
      const action = ctx.keymap.action("popup.pick", name);
      if (action === "pick.close") close();
      else if (action === "pick.down") setCursor(Math.min(last, now.at + 1));
      else if (action === "pick.up") setCursor(Math.max(0, now.at - 1));
      else if (action === "pick.pageDown") setCursor(Math.min(last, now.at + room));
      else if (action === "pick.pageUp") setCursor(Math.max(0, now.at - room));
      else if (action === "pick.add" && mode === "people") {
        const row = now.rows[now.at];
        if (row) setChosen((c) => (c.includes(row.id) ? c.filter((x) => x !== row.id) : [...c, row.id]));
        input.set("");
        setCursor(0);
      } else if (action === "pick.choose") {
        const row = now.rows[now.at];
        const ids = chosen().length ? chosen() : row ? [row.id] : [];
        if (!ids.length) return true;
        close();
        onPick(ids, ctx);
      } else if (action === "pick.unchoose" && !input.value.current && chosen().length) setChosen((c) => c.slice(0, -1));
      else if (input.key(name, text, ctx.keymap)) setCursor(0);
      return true;
    },
    { priority: 50 },
  );

  const k = (action: string) => ctx.keymap.hint(action).split(" / ")[0];
  return (
    <Popup
      title={title}
      hint={`type to filter · ${k("pick.up")}/${k("pick.down")} move · ${mode === "people" ? `${k("pick.add")} add another · ${k("pick.choose")} write` : `${k("pick.choose")} choose`} · ${k("pick.close")} cancel`}
      width={width}
      height={height}
    >
      {mode === "people" ? (
        <Text wrap="truncate">
          <Text color={theme.accent}>To: </Text>
          {chosen().length ? chosen().map((id) => sanitizeInline(ctx.store.userName(id))).join(", ") : <Text dimColor>(Tab adds the highlighted person; Enter alone writes to them)</Text>}
        </Text>
      ) : null}
      <Text wrap="truncate-start">
        <Text color={theme.accent}>Filter: </Text>
        {sanitizeInline(filter)}
        <Text inverse> </Text>
      </Text>
      {rows.length === 0 ? <Text dimColor>{mode === "people" && !ctx.store.people.complete ? t`loading people…` : "No match."}</Text> : null}
      {rows.slice(offset, offset + room).map((r, i) => {
        const on = offset + i === at;
        const picked = chosen().includes(r.id);
        return (
          <Text key={r.id} wrap="truncate" inverse={on}>
            <RowMark kind={on ? "selected" : "none"} inverse={on} />
            {picked ? `${glyphs().check} ` : "  "}
            {sanitizeInline(r.label)}
            {r.detail ? <Text dimColor>{"  " + sanitizeInline(r.detail)}</Text> : null}
          </Text>
        );
      })}
    </Popup>
  );
}

/** x: a new direct message to the people picked. */
export function openNewDm(ctx: ActionContext): void {
  ctx.openPopup((close) => (
    <PickRecipient
      mode="people"
      title="New direct message"
      close={close}
      onPick={(ids, now) => {
        const userIds = dmParticipants(ids, now.store.selfId);
        now.openNarrow({ kind: "dm", userIds }, { focus: "messages" });
        now.openCompose({ type: "direct", userIds });
      }}
    />
  ));
}

/** c outside a channel: which channel, then which topic. */
export function openPickChannel(ctx: ActionContext): void {
  ctx.openPopup((close) => (
    <PickRecipient mode="channel" title="New topic in which channel?" close={close} onPick={([id], now) => id !== undefined && openNewTopic(now, id)} />
  ));
}
