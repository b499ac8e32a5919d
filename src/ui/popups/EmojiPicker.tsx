/**
 * Reaction popups. The emoji picker: a search line and a grid of matching
 * emoji (the organization's custom emoji, then Unicode by name); arrows (or
 * j/k/h/l after Tab) choose, Enter adds — or removes — the reader's
 * reaction. The reaction chooser: the reactions already on a message, to
 * toggle one.
 */
import { Text } from "ink";
import { useRef, useState } from "react";
import type { Message } from "../../api/schemas/common.js";
import type { ReactionParams } from "../../api/routes/reactions.js";
import type { ReactionType } from "../../api/routes/status.js";
import type { Store } from "../../model/store.js";
import { searchEmoji } from "../../render/emoji.js";
import { emojiAsText, glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useFeatureContext } from "../contexts.js";
import { emojiCode, reactionParams, reactWith } from "../reactions.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { useList } from "../list/list-part.js";
import { reactionGroups } from "../message-layout.js";
import { useTheme } from "../theme.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export interface EmojiChoice {
  /** What is shown: the character, or `:name:` for a custom emoji. */
  label: string;
  name: string;
  /** How a reaction with this emoji is recognised on a message. */
  code: string;
  type: ReactionType;
  /** What is sent to add it when nobody has reacted with it yet. */
  params: ReactionParams;
}

/** Emoji matching a search: the organization's custom emoji (name contains it), then Unicode (name starts with it). */
export function emojiChoices(store: Store, query: string, limit = 60): EmojiChoice[] {
  const q = query.trim().toLowerCase().replace(/^:/, "").replace(/:$/, "");
  const out: EmojiChoice[] = [];
  for (const e of store.personal.realmEmoji.values()) {
    if (e.deactivated || !e.name.toLowerCase().includes(q)) continue;
    const name = sanitizeInline(e.name);
    out.push({ label: `:${name}:`, name, code: e.id, type: "realm_emoji", params: { emoji_name: e.name, emoji_code: e.id, reaction_type: "realm_emoji" } });
    if (out.length >= limit) return out;
  }
  const seen = new Set<string>();
  for (const m of searchEmoji(q, limit * 2)) {
    const code = emojiCode(m.emoji);
    if (seen.has(code)) continue; // aliases: one cell per emoji
    seen.add(code);
    out.push({ label: m.emoji, name: m.name, code, type: "unicode_emoji", params: { emoji_name: m.name } });
    if (out.length >= limit) break;
  }
  return out;
}

/** Toggles the reader's reaction with a chosen emoji (joining an existing reaction under its own name). */
export function reactWithChoice(ctx: ActionContext, m: Message, c: EmojiChoice): void {
  const existing = m.reactions.find((r) => r.emoji_code === c.code && r.reaction_type === c.type);
  reactWith(ctx, m, existing ? reactionParams(existing) : c.params, c.label);
}

export function openEmojiPicker(ctx: ActionContext, messageId: number): void {
  ctx.openPopup((close) => <EmojiPicker messageId={messageId} close={close} />);
}

export function openReactionChooser(ctx: ActionContext, messageId: number): void {
  ctx.openPopup((close) => <ReactionChooser messageId={messageId} close={close} />);
}

const CELL = 18;

function EmojiPicker({ messageId, close }: { messageId: number; close: () => void }) {
  const ctx = useFeatureContext();
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [listMode, setListMode] = useState(false);
  const m = ctx.store.messages.byId.get(messageId);
  const columns = Math.max(1, Math.floor((width - 4) / CELL));
  const rows = Math.max(1, height - 5);
  // A grid on the list part: up and down move a row of cells, the name typed filters.
  const list = useList({
    scope: listMode ? "popup.emoji.list" : "popup.emoji",
    keymap: ctx.keymap,
    filter: true,
    columns,
    count: () => emojiChoices(ctx.store, list.model.filter.text).length,
    page: rows,
    onAction: (action, at) => {
      const n = emojiChoices(ctx.store, list.model.filter.text).length;
      const move = (d: number) => (list.model.at = Math.max(0, Math.min(n - 1, at + d)));
      if (action === "emoji.close") close();
      else if (action === "emoji.choose") {
        const c = emojiChoices(ctx.store, list.model.filter.text)[at];
        if (m && c) {
          close();
          reactWithChoice(ctx, m, c);
        }
      } else if (action === "emoji.listDown") move(columns);
      else if (action === "emoji.listUp") move(-columns);
      else if (action === "emoji.right" || action === "emoji.listRight") move(1);
      else if (action === "emoji.left" || action === "emoji.listLeft") move(-1);
      else if (action === "emoji.listMode") setListMode((x) => !x);
      else if (action === "emoji.search") setListMode(false);
      else return false;
      return true;
    },
    onFilter: () => setListMode(false),
  });
  const query = list.model.filter.text;
  const choices = emojiChoices(ctx.store, query);
  const at = list.at(choices.length);
  // The grid scrolls by whole rows, keeping the cursor's row in view.
  const top = useRef(0);
  const row = Math.floor(at / columns);
  top.current = row < top.current ? row : row >= top.current + rows ? row - rows + 1 : Math.min(top.current, row);
  const mine = new Set(m ? m.reactions.filter((r) => r.user_id === ctx.store.selfId).map((r) => `${r.reaction_type}:${r.emoji_code}`) : []);

  const visible = choices.slice(top.current * columns, (top.current + rows) * columns);
  const lines: Array<typeof visible> = [];
  for (let i = 0; i < visible.length; i += columns) lines.push(visible.slice(i, i + columns));
  return (
    <Popup title="React" hint={`${listMode ? "hjkl/arrows · / search" : "type to search · arrows · Tab hjkl"} · ${ctx.keymap.hint("emoji.choose")} react · ${ctx.keymap.hint("emoji.close")}`} width={width} height={height}>
      <Text wrap="truncate">
        <Text color={theme.accent}>{"Search: "}</Text>
        {query}
        {listMode ? "" : <Text inverse> </Text>}
      </Text>
      {!m ? <Text dimColor>The message is no longer here.</Text> : null}
      {choices.length === 0 ? <Text dimColor>{t`No emoji named ${sanitizeInline(query)}…`}</Text> : null}
      {lines.map((row, r) => (
        <Text key={r} wrap="truncate">
          {row.map((c, i) => {
            const index = (top.current + r) * columns + i;
            const selected = index === at;
            const own = mine.has(`${c.type}:${c.code}`);
            const label = c.type === "unicode_emoji" && emojiAsText() ? `:${c.name}:` : `${c.label} ${c.name}`;
            const cell = truncate(`${own ? glyphs().check : " "}${label}`, CELL - 1);
            return (
              <Text key={i} inverse={selected} color={own && !selected ? theme.accent : undefined} bold={own}>
                {cell + " ".repeat(Math.max(1, CELL - displayWidth(cell)))}
              </Text>
            );
          })}
        </Text>
      ))}
    </Popup>
  );
}

function ReactionChooser({ messageId, close }: { messageId: number; close: () => void }) {
  const ctx = useFeatureContext();
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [cursor, setCursor] = useState(0);
  const m = ctx.store.messages.byId.get(messageId);
  const groups = m ? reactionGroups(ctx.store, m) : [];
  const at = Math.min(cursor, Math.max(0, groups.length - 1));
  const room = Math.max(1, height - 3);
  const top = Math.max(0, at - room + 1);
  useKeypress(
    (name) => {
      const action = ctx.keymap.action("popup.reactions", name);
      if (action === "reactions.close") close();
      else if (action === "reactions.down") setCursor(Math.min(groups.length - 1, at + 1));
      else if (action === "reactions.up") setCursor(Math.max(0, at - 1));
      else if (action === "reactions.toggle") {
        const g = groups[at];
        if (m && g) {
          close();
          reactWith(ctx, m, reactionParams(g), g.label);
        }
      }
      return true;
    },
    { priority: 50 },
  );
  return (
    <Popup title="Reactions" hint={`j/k choose · ${ctx.keymap.hint("reactions.toggle")} add/remove yours · ${ctx.keymap.hint("reactions.close")}`} width={width} height={height}>
      {groups.length === 0 ? <Text dimColor>No reactions on this message.</Text> : null}
      {groups.slice(top, top + room).map((g, i) => {
        const names = g.userIds.map((id) => (id === ctx.store.selfId ? "you" : sanitizeInline(ctx.store.userName(id)))).join(", ");
        return (
          <Text key={g.reaction_type + g.emoji_code} wrap="truncate" inverse={top + i === at}>
            <Text color={top + i === at ? undefined : g.mine ? theme.accent : theme.reactions} bold={g.mine}>
              {`${g.mine ? "[" : " "}${g.label} ${g.count}${g.mine ? "]" : " "}`}
            </Text>
            {`  ${names}`}
          </Text>
        );
      })}
    </Popup>
  );
}
