/**
 * The jump finder (Ctrl-P, beside Ctrl-K's commands): one list over the
 * screens of the screen table, channels, topics, people and direct-message
 * conversations, ranked by the jump index (model/jump-index.ts: match
 * quality, then unread, then last activity). With nothing typed it lists
 * conversations by last activity; `#` keeps channels and topics, `@` people,
 * `channel>topic` matches both. Enter goes there. The index is built once per
 * store and kept with the account; it follows the store on each keystroke.
 */
import { Text } from "ink";
import { useRef, type ReactNode } from "react";
import { JumpIndex, type JumpResult, type JumpTarget } from "../../model/jump-index.js";
import type { Narrow } from "../../model/narrow.js";
import type { Store } from "../../model/store.js";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useList, windowStart } from "../list/list-part.js";
import type { Keymap } from "../keymap.js";
import { openScreen, screenById, SCREENS } from "../screens.js";
import { useTheme } from "../theme.js";
import { RowMark } from "../components/RowMark.js";
import { TextLine } from "./Form.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

const KEPT = Symbol("jump index");

/** The account's jump index for this store (built on first use, then kept while the store lives). */
export function jumpIndexOf(ctx: Pick<ActionContext, "account">, store: Store): JumpIndex {
  const byStore = ctx.account.keep(KEPT, () => new WeakMap<Store, JumpIndex>());
  let index = byStore.get(store);
  if (!index) byStore.set(store, (index = new JumpIndex(store, SCREENS.map((s) => ({ id: s.id, label: s.label })))));
  return index;
}

/** Where a result goes: a screen, or a narrow (a topic or conversation at its first unread message). */
export function goToTarget(ctx: ActionContext, target: JumpTarget): void {
  if (target.kind === "view") {
    const screen = screenById(target.id);
    if (screen) openScreen(ctx, screen);
    return;
  }
  const narrow: Narrow =
    target.kind === "channel"
      ? { kind: "channel", channelId: target.channelId }
      : target.kind === "topic"
        ? { kind: "topic", channelId: target.channelId, topic: target.topic }
        : { kind: "dm", userIds: target.kind === "user" ? [target.userId] : [...target.userIds] };
  ctx.openNarrow(narrow, { focus: "messages", select: narrow.kind === "channel" ? undefined : ctx.store.firstUnreadIn(narrow) });
}

export function openFinder(ctx: ActionContext): void {
  const index = jumpIndexOf(ctx, ctx.store);
  ctx.openPopup((close) => <Finder index={index} store={ctx.store} keymap={ctx.keymap} close={close} go={(target) => goToTarget(ctx, target)} />);
}

const LIMIT = 50;

/** The label with its matched parts drawn bold in the accent colour. */
function Highlighted({ text, ranges, color, selected }: { text: string; ranges: Array<[number, number]>; color: string | undefined; selected: boolean }): ReactNode {
  if (ranges.length === 0) return text;
  const parts: ReactNode[] = [];
  let at = 0;
  ranges.forEach(([a, b], i) => {
    if (a > at) parts.push(text.slice(at, a));
    parts.push(
      <Text key={i} bold color={selected ? undefined : color} underline={selected}>
        {text.slice(a, b)}
      </Text>,
    );
    at = b;
  });
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

function kindMark(r: JumpResult): string {
  const g = glyphs();
  switch (r.target.kind) {
    case "view":
      return g.view;
    case "channel":
      return "#";
    case "topic":
      return g.prompt;
    default:
      return "@";
  }
}

export interface FinderProps {
  index: JumpIndex;
  /** The store the index follows (its version says when the results are stale). */
  store: Store;
  keymap: Keymap;
  close: () => void;
  go: (t: JumpTarget) => void;
}

export function Finder({ index, store, keymap, close, go }: FinderProps): ReactNode {
  const theme = useTheme();
  const { width, height } = usePopupSize();
  // Fifteen rows at most: the first few are what one picks from, and each row drawn costs every keystroke.
  const room = Math.max(3, Math.min(15, height - 5));
  // One query a keystroke: the key handler and the frame after it read the same results.
  const last = useRef<{ text: string; version: number; results: JumpResult[] }>(undefined);
  const query = (text: string): JumpResult[] => {
    const l = last.current;
    if (l && l.text === text && l.version === store.version) return l.results;
    const results = index.query(text, LIMIT);
    last.current = { text, version: store.version, results };
    return results;
  };
  const list = useList({
    scope: "finder",
    keymap,
    filter: true,
    count: () => query(list.model.filter.text).length,
    page: room,
    onAction: (action, at) => {
      if (action === "finder.close") close();
      else if (action === "finder.go") {
        const chosen = query(list.model.filter.text)[at];
        if (chosen) {
          close();
          go(chosen.target);
        }
      } else return false;
      return true;
    },
  });
  const results = query(list.model.filter.text);
  const at = list.at(results.length);
  const start = windowStart(at, results.length, room);
  const inner = Math.max(10, width - 4);
  const g = glyphs();
  return (
    <Popup title="Go to" hint={t`type a name · ${keymap.hint("filter.up").split(" / ")[0]}/${keymap.hint("filter.down").split(" / ")[0]} choose · ${keymap.hint("finder.go")} go · # places · @ people · channel>topic`} width={width} height={height}>
      <Text>
        <Text color={theme.accent}>{`${g.prompt} `}</Text>
        <TextLine editor={list.model.filter} focused width={width - 6} placeholder={t("a channel, topic, person or view…")} />
      </Text>
      {results.length === 0 ? <Text dimColor>Nothing matches.</Text> : null}
      {results.slice(start, start + room).map((r, i) => {
        const selected = start + i === at;
        const label = sanitizeInline(r.label);
        const context = r.context ? sanitizeInline(r.context) : "";
        const marks = `${r.muted ? ` ${g.muted}` : ""}${r.followed ? ` ${g.star}` : ""}`;
        const count = r.unread ? `  ${r.unread}` : "";
        const room = Math.max(4, inner - 4 - displayWidth(marks) - displayWidth(count) - (context ? Math.min(displayWidth(context), 20) + 3 : 0));
        return (
          <Text key={`${r.target.kind}:${i}:${label}`} wrap="truncate" inverse={selected}>
            <RowMark kind={selected ? "selected" : "none"} inverse={selected} />
            {` ${kindMark(r)} `}
            {context ? (
              <Text dimColor={!selected}>
                <Highlighted text={truncate(context, 20)} ranges={r.contextRanges} color={theme.accent} selected={selected} />
                {` ${g.prompt} `}
              </Text>
            ) : null}
            <Highlighted text={truncate(label, room)} ranges={r.ranges} color={theme.accent} selected={selected} />
            {marks ? <Text dimColor={!selected}>{marks}</Text> : null}
            {count ? <Text color={selected ? undefined : theme.count}>{count}</Text> : null}
          </Text>
        );
      })}
    </Popup>
  );
}
