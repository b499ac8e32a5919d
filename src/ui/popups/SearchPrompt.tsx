/**
 * The search prompt (/): one line in the service's search syntax, ↑/↓ walk
 * the queries searched before (this run of the program), Enter opens the
 * results, Esc closes. A query the parser cannot use is explained in place.
 */
import { Text } from "ink";
import { useRef, useState, type ReactNode } from "react";
import { narrowAnchorId, type Narrow } from "../../model/narrow.js";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { AccountHandle } from "../../sync/account-handle.js";
import type { ActionContext } from "../app-context.js";
import type { Keymap } from "../keymap.js";
import { EMPTY_EDITOR, editorReducer, type EditorState } from "../compose-editor.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { parseSearchQuery, toNarrowTerms } from "../search-query.js";
import { useTheme } from "../theme.js";
import { TextLine, lineEdit } from "./Form.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

const HISTORY_LIMIT = 50;

/** Queries searched before, oldest first. */
export class SearchHistory {
  readonly items: string[] = [];

  add(query: string): void {
    const q = query.trim();
    if (!q) return;
    const i = this.items.indexOf(q);
    if (i >= 0) this.items.splice(i, 1);
    this.items.push(q);
    if (this.items.length > HISTORY_LIMIT) this.items.splice(0, this.items.length - HISTORY_LIMIT);
  }
}

/** Where the account's handle keeps its search history. */
const HISTORY = Symbol("search history");

/** One history per account, kept while the account is open. */
export function searchHistory(account: Pick<AccountHandle, "keep">): SearchHistory {
  return account.keep(HISTORY, () => new SearchHistory());
}

const SYNTAX = [
  "words · \"a phrase\" · channel:name · topic:name · sender:email|me · dm:email,email",
  "is:dm|starred|mentioned|unread|followed|resolved|alerted · has:link|attachment|image|reaction",
  "near:id · id:id · -operator:value negates",
];

export function openSearchPrompt(ctx: ActionContext): void {
  const selfEmail = ctx.store.users.get(ctx.store.selfId)?.email;
  const history = searchHistory(ctx.account);
  ctx.openPopup((close) => (
    <SearchPrompt
      history={history}
      keymap={ctx.keymap}
      close={close}
      submit={(text) => {
        const parsed = parseSearchQuery(text, { selfEmail });
        if (parsed.errors.length) return parsed.errors.join("; ");
        history.add(text);
        close();
        const narrow: Narrow = { kind: "search", query: parsed.canonical, terms: toNarrowTerms(parsed.terms) };
        ctx.openNarrow(narrow, { focus: "messages", select: narrowAnchorId(narrow) });
        return undefined;
      }}
    />
  ));
}

export function SearchPrompt({
  history,
  keymap,
  close,
  submit,
}: {
  history: SearchHistory;
  keymap: Keymap;
  close: () => void;
  submit: (text: string) => string | undefined;
}): ReactNode {
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [, setTick] = useState(0);
  const editor = useRef<EditorState>(EMPTY_EDITOR);
  /** Position in the history while walking it (items.length: the line being typed). */
  const pos = useRef(history.items.length);
  const typed = useRef("");
  const problem = useRef<string | undefined>(undefined);

  useKeypress(
    (name, input) => {
      problem.current = undefined;
      const action = keymap.action("search", name);
      if (action === "search.close") close();
      else if (action === "search.submit") problem.current = submit(editor.current.text);
      else if (action === "search.earlier" || action === "search.later") {
        const items = history.items;
        if (pos.current === items.length) typed.current = editor.current.text;
        const next = action === "search.earlier" ? Math.max(0, pos.current - 1) : Math.min(items.length, pos.current + 1);
        pos.current = next;
        editor.current = editorReducer(editor.current, { type: "set", text: next === items.length ? typed.current : (items[next] ?? "") });
      } else {
        const edit = lineEdit(name, input, keymap);
        if (edit) editor.current = editorReducer(editor.current, edit);
      }
      setTick((t) => t + 1);
      return true;
    },
    { priority: 50 },
  );

  return (
    <Popup title="Search" hint={`${keymap.hint("search.submit")} search · ${keymap.hint("search.earlier").split(" / ")[0]}/${keymap.hint("search.later").split(" / ")[0]} earlier searches · ${keymap.hint("search.close")} close`} width={width} height={Math.min(height, 9)}>
      <Text>
        <Text color={theme.accent}>{"/ "}</Text>
        <TextLine editor={editor.current} focused width={width - 6} />
      </Text>
      {problem.current ? (
        <Text color={theme.error} wrap="truncate">
          {sanitizeInline(problem.current)}
        </Text>
      ) : (
        <Text> </Text>
      )}
      {SYNTAX.map((l) => (
        <Text key={l} dimColor wrap="truncate">
          {t(l)}
        </Text>
      ))}
    </Popup>
  );
}
