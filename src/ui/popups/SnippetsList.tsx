/**
 * Saved snippets: texts kept on the server to insert while writing. Opened
 * from the compose box (Ctrl-N) it searches them by title as you type and Enter
 * puts the chosen one's text at the cursor; opened from the palette, Enter
 * edits. Ctrl-O makes a new one, Ctrl-E edits (title, then text), Ctrl-D
 * deletes (after a question). The list follows the server's events.
 */
import { Text } from "ink";
import { missingFeature } from "../../model/features.js";
import { snippetsByTitle } from "../../model/selectors-personal.js";
import type { SavedSnippet } from "../../api/schemas/common.js";
import { glyphs } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { ActionContext } from "../app-context.js";
import { useScreenActions, useScreenState, type ScreenActions } from "../contexts.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { typedText } from "../keys.js";
import { openConfirm } from "./Confirm.js";
import { openEditText } from "./EditText.js";
import { openForm } from "./Form.js";
import { ItemList, clampCursor, useKept } from "./ItemList.js";

export function SnippetsList({ close, composeKey, kept }: { close: () => void; composeKey?: string; kept: { query: string; cursor: number } }) {
  const { store, keymap } = useScreenState();
  const actions = useScreenActions();
  const [state, setState] = useKept(kept);
  const rows = snippetsByTitle(store, state().query);

  useKeypress(
    (name, input) => {
      const { query, cursor } = state();
      const now = snippetsByTitle(store, query);
      const i = clampCursor(cursor, now.length);
      const row = now[i];
      const action = keymap.action("popup.snippets", name);
      if (action === "snippets.close") close();
      else if (action === "snippets.down") setState({ query, cursor: clampCursor(i + 1, now.length) });
      else if (action === "snippets.up") setState({ query, cursor: clampCursor(i - 1, now.length) });
      else if (action === "snippets.new") editSnippet(actions.now());
      else if (action === "snippets.edit" && row) editSnippet(actions.now(), row);
      else if (action === "snippets.delete" && row) deleteSnippet(actions.now(), row);
      else if (action === "snippets.choose" && row) {
        if (composeKey === undefined) return editSnippet(actions.now(), row), true;
        close();
        if (!actions.insertIntoCompose?.(row.content, composeKey)) actions.notify("The compose box has closed: open it again to insert the snippet.", "error");
        else actions.notify(`Inserted the snippet ${sanitizeInline(row.title)}`);
      } else if (action === "snippets.erase") setState({ query: query.slice(0, -1), cursor: 0 });
      else if (action === "snippets.clear") setState({ query: "", cursor: 0 });
      else {
        const typed = typedText(name, input);
        if (typed !== undefined && !typed.includes("\n")) setState({ query: query + typed, cursor: 0 });
      }
      return true;
    },
    { priority: 50 },
  );

  const g = glyphs();
  const chooseWord = composeKey === undefined ? "edit" : "insert";
  return (
    <ItemList
      title={`Saved snippets (${rows.length})`}
      hint={`${keymap.hint("snippets.choose")} ${chooseWord} · ${keymap.hint("snippets.new")} new · ${keymap.hint("snippets.edit")} edit · ${keymap.hint("snippets.delete")} delete · ${keymap.hint("snippets.close")} close`}
      header={
        <Text wrap="truncate">
          {`Title${g.prompt} `}
          {sanitizeInline(state().query)}
          <Text inverse> </Text>
        </Text>
      }
      rows={rows.map((s) => ({ key: String(s.id), title: s.title, body: s.content }))}
      cursor={clampCursor(state().cursor, rows.length)}
      empty={state().query ? "No snippet's title holds that." : `No saved snippets yet: ${keymap.hint("snippets.new")} makes one.`}
    />
  );
}

/** A new snippet (no `s`) or a change to one: its title in a form, then its text. */
function editSnippet(ctx: ActionContext, s?: SavedSnippet): void {
  openForm(ctx, {
    title: s ? `Edit the snippet ${s.title}` : "New saved snippet",
    subtitle: "Its title, then its text.",
    fields: [{ kind: "text", name: "title", label: "Title", initial: s?.title ?? "", validate: (v) => (v.trim() ? undefined : "A snippet needs a title.") }],
    onSubmit: (v) => {
      const title = String(v["title"] ?? "").trim();
      openEditText(ctx, {
        title: `Snippet: ${title}`,
        initial: s?.content ?? "",
        save: s ? (content) => ctx.account.actions.editSnippet(s.id, { title, content }) : (content) => ctx.account.actions.createSnippet({ title, content }),
        saved: s ? `Snippet ${title} saved.` : `Snippet ${title} created.`,
      });
    },
  });
}

function deleteSnippet(ctx: ActionContext, s: SavedSnippet): void {
  openConfirm(ctx, {
    title: `Delete the snippet ${s.title}?`,
    lines: ["Every client of yours loses it."],
    action: "delete",
    danger: true,
    onConfirm: () => ctx.attempt(() => ctx.account.actions.deleteSnippet(s.id), `Snippet ${s.title} deleted.`),
  });
}

/** Opens the snippets; from the compose box (its draft key given), Enter inserts. */
export function openSnippets(ctx: Pick<ScreenActions, "openPopup" | "notify"> & { store: ActionContext["store"] }, composeKey?: string): void {
  const missing = missingFeature(ctx.store.realm.featureLevel, "savedSnippets");
  if (missing) return ctx.notify(missing, "error");
  const kept = { query: "", cursor: 0 };
  ctx.openPopup((close) => <SnippetsList close={close} composeKey={composeKey} kept={kept} />);
}
