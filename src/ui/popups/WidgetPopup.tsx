/**
 * The widget popup of a poll or a to-do list: every option with its voters
 * (and who added it), or every task with who checked it off. j/k choose,
 * Enter or Space votes (again: takes the vote back) or checks a task off
 * (again: back on), `a` adds an option or a task on a line at the bottom.
 * The popup stays open and follows the votes as they come in.
 */
import { Text } from "ink";
import { Fragment, useReducer, useRef } from "react";
import { splitTask, type Widget } from "../../model/widgets.js";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { truncate } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useFeatureContext } from "../contexts.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { typedText } from "../keys.js";
import { useStoreVersion } from "../hooks/use-store.js";
import { useTheme } from "../theme.js";
import { checkbox, peopleNames, pollTitle, taskText, todoTitle, voterCountText } from "../widget-lines.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export function openWidgetPopup(ctx: ActionContext, messageId: number): void {
  ctx.openPopup((close) => <WidgetPopup messageId={messageId} close={close} />);
}

interface Row {
  key: string;
  /** Poll options: the vote count before the text. */
  prefix: string;
  text: string;
  detail: string;
  on: boolean;
}

function rowsOf(ctx: ActionContext, w: Widget): Row[] {
  const self = ctx.store.selfId;
  const name = (id: number) => ctx.store.userName(id);
  if (w.kind === "poll") {
    return w.options.map((o) => {
      const by = o.addedBy !== undefined ? `added by ${peopleNames([o.addedBy], self, name)}` : "";
      const votes = o.voters.length ? peopleNames(o.voters, self, name) : "no votes";
      return { key: o.key, prefix: `${o.voters.length} `, text: sanitizeInline(o.text), detail: [votes, by].filter(Boolean).join(t(" · ")), on: o.voters.includes(self) };
    });
  }
  return w.tasks.map((task) => {
    const by = task.addedBy !== undefined ? `added by ${peopleNames([task.addedBy], self, name)}` : "";
    const done = task.completed && task.completedBy !== undefined ? `done by ${peopleNames([task.completedBy], self, name)}` : "";
    return { key: task.key, prefix: "", text: taskText(task), detail: [done, by].filter(Boolean).join(t(" · ")), on: task.completed };
  });
}

function toggle(ctx: ActionContext, w: Widget, row: Row): void {
  const id = w.messageId;
  const label = truncate(row.text, 40);
  if (w.kind === "poll") {
    ctx.attempt(() => ctx.account.actions.togglePollVote(id, row.key), row.on ? `Took back your vote for ${label}` : `Voted for ${label}`);
  } else {
    ctx.attempt(() => ctx.account.actions.toggleTask(id, row.key), row.on ? `Unchecked ${label}` : `Checked off ${label}`);
  }
}

function add(ctx: ActionContext, w: Widget, text: string): void {
  const id = w.messageId;
  if (w.kind === "poll") ctx.attempt(() => ctx.account.actions.addPollOption(id, text), `Added the option ${truncate(sanitizeInline(text.trim()), 40)}`);
  else ctx.attempt(() => ctx.account.actions.addTodoTask(id, text), `Added the task ${truncate(taskText(splitTask(text)), 40)}`);
}

export function WidgetPopup({ messageId, close }: { messageId: number; close: () => void }) {
  const ctx = useFeatureContext();
  const theme = useTheme();
  useStoreVersion(ctx.store);
  const { width, height } = usePopupSize();
  // The cursor and the line being typed live in refs: every key of a burst sees the one before it.
  const cursorRef = useRef(0);
  const draftRef = useRef<string | undefined>(undefined);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const setCursor = (n: number) => {
    cursorRef.current = n;
    redraw();
  };
  const setDraft = (d: string | undefined) => {
    draftRef.current = d;
    redraw();
  };
  const cursor = cursorRef.current;
  const draft = draftRef.current;
  const m = ctx.store.messages.byId.get(messageId);
  const w = m ? ctx.store.widgets.of(m) : undefined;
  const rows = w ? rowsOf(ctx, w) : [];
  const at = Math.min(cursor, Math.max(0, rows.length - 1));
  const room = Math.max(1, Math.floor((height - 5 - (draft !== undefined ? 1 : 0)) / 2));
  const top = Math.max(0, at - room + 1);

  useKeypress(
    (name, input) => {
      const draft = draftRef.current;
      const at = Math.min(cursorRef.current, Math.max(0, rows.length - 1));
      if (draft !== undefined) {
        const action = ctx.keymap.action("popup.widget.add", name);
        if (action === "widgetAdd.cancel") setDraft(undefined);
        else if (action === "widgetAdd.submit") {
          if (w && draft.trim() !== "") add(ctx, w, draft);
          setDraft(undefined);
        } else if (action === "widgetAdd.erase") setDraft([...draft].slice(0, -1).join(""));
        else if (action === "widgetAdd.clear") setDraft("");
        else {
          const typed = typedText(name, input);
          if (typed === undefined) return true;
          setDraft(draft + typed);
          return "typed";
        }
        return true;
      }
      const action = ctx.keymap.action("popup.widget", name);
      if (action === "widget.close") close();
      else if (action === "widget.down") setCursor(Math.min(rows.length - 1, at + 1));
      else if (action === "widget.up") setCursor(Math.max(0, at - 1));
      else if (action === "widget.toggle") {
        const row = rows[at];
        if (w && row) toggle(ctx, w, row);
      } else if (action === "widget.add" && w) setDraft("");
      return true; // modal: every key stays here
    },
    { priority: 50 },
  );

  const kind = w?.kind === "todo" ? "task" : "option";
  const hint =
    draft !== undefined
      ? `${ctx.keymap.hint("widgetAdd.submit")} add · ${ctx.keymap.hint("widgetAdd.cancel")} cancel`
      : `j/k choose · ${ctx.keymap.hint("widget.toggle")} ${w?.kind === "todo" ? "check/uncheck" : "vote/unvote"} · ${ctx.keymap.hint("widget.add")} add ${kind} · ${ctx.keymap.hint("widget.close")}`;
  const title = !w ? "Widget" : w.kind === "poll" ? `${pollTitle(w)}  ${voterCountText(w)}` : `${todoTitle(w)}  (${w.tasks.filter((t) => t.completed).length}/${w.tasks.length} done)`;
  return (
    <Popup title={w?.kind === "todo" ? "To-do list" : "Poll"} hint={hint} width={width} height={height}>
      <Text wrap="truncate" bold>
        {title}
      </Text>
      {!w ? <Text dimColor>This message has no poll or to-do list (any more).</Text> : null}
      {w && rows.length === 0 ? <Text dimColor>{`No ${kind}s yet: ${ctx.keymap.hint("widget.add")} adds one.`}</Text> : null}
      {rows.slice(top, top + room).map((r, i) => (
        <Fragment key={r.key}>
          {/* The cursor's row is inverse in the terminal's own colours: an accent colour inverted would be its background (white on cyan). */}
          <Text wrap="truncate" inverse={top + i === at} color={r.on && top + i !== at ? theme.accent : undefined} bold={r.on}>
            <RowMark kind={top + i === at ? "selected" : "none"} inverse={top + i === at} />
            {` ${checkbox(r.on)} ${r.prefix}${r.text}`}
          </Text>
          <Text wrap="truncate" dimColor>
            {`    ${r.detail}`}
          </Text>
        </Fragment>
      ))}
      {draft !== undefined ? (
        <Text wrap="truncate">
          <Text color={theme.accent}>{w?.kind === "todo" ? "New task (task: description): " : "New option: "}</Text>
          {sanitizeInline(draft)}
          <Text inverse> </Text>
        </Text>
      ) : null}
    </Popup>
  );
}
