/**
 * Picks where a new message goes: one or more people (x: a new direct
 * message) or a channel (c outside a channel: then its topic). Typing
 * filters; ↑/↓ move; Tab adds the highlighted person to the recipients;
 * Enter chooses.
 */
import { Text } from "ink";
import { channelRows } from "../../model/selectors.js";
import type { Store } from "../../model/store.js";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { ActionContext } from "../app-context.js";
import { useFeatureContext } from "../contexts.js";
import { nameMatches } from "../autocomplete.js";
import { useList, windowStart } from "../list/list-part.js";
import { usePresenceVersion } from "../hooks/use-store.js";
import { useTheme } from "../theme.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";
import { useRefState } from "../hooks/use-ref-state.js";

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
  const [chosen, setChosen] = useRefState<number[]>([]);
  const room = Math.max(1, height - (mode === "people" ? 6 : 5));
  const rowsFor = (typed: string) => (mode === "people" ? peopleRows(ctx.store, typed) : channelChoices(ctx.store, typed));
  const list = useList({
    scope: "popup.pick",
    keymap: ctx.keymap,
    filter: true,
    count: () => rowsFor(list.model.filter.text).length,
    page: room,
    onAction: (action, at) => {
      const row = rowsFor(list.model.filter.text)[at];
      if (action === "pick.close") close();
      else if (action === "pick.add" && mode === "people") {
        if (row) setChosen((c) => (c.includes(row.id) ? c.filter((x) => x !== row.id) : [...c, row.id]));
        list.setFilter("");
      } else if (action === "pick.choose") {
        const ids = chosen().length ? chosen() : row ? [row.id] : [];
        if (!ids.length) return true;
        close();
        onPick(ids, ctx);
      } else if (action === "pick.unchoose" && !list.model.filter.text && chosen().length) setChosen((c) => c.slice(0, -1));
      else return false;
      return true;
    },
  });
  const filter = list.model.filter.text;
  const rows = rowsFor(filter);
  const at = list.at(rows.length);
  const offset = windowStart(at, rows.length, room);

  const k = (action: string) => ctx.keymap.hint(action).split(" / ")[0];
  return (
    <Popup
      title={title}
      hint={`type to filter · ${k("filter.up")}/${k("filter.down")} move · ${mode === "people" ? `${k("pick.add")} add another · ${k("pick.choose")} write` : `${k("pick.choose")} choose`} · ${k("pick.close")} cancel`}
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
