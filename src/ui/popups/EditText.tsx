/**
 * Editing a text of several lines in a popup (a scheduled message's text, a
 * saved snippet's): the compose box's editing keys, ↑/↓ by the lines shown,
 * Enter saves, Ctrl-J a new line, Esc gives up; a long text scrolls with the
 * cursor. The text stays in the popup until the server has taken it: a
 * refusal is shown there and nothing typed is lost.
 */
import { Text } from "ink";
import { useRef, useState } from "react";
import { sanitize, sanitizeInline } from "../../render/sanitize.js";
import { wrapText } from "../../render/wrap.js";
import type { ActionResult } from "../../sync/actions/result.js";
import type { ActionContext } from "../app-context.js";
import { EMPTY_EDITOR, editActionForKey, editorReducer, type EditorState } from "../compose-editor.js";
import { useScreenState } from "../contexts.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { useTheme } from "../theme.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export interface EditTextSpec {
  title: string;
  subtitle?: string;
  initial: string;
  /** Saves the text; the popup closes when it succeeds, and says why when it does not. */
  save: (text: string) => Promise<ActionResult<unknown>>;
  /** Said on the status line once saved. */
  saved: string;
}

/** Marks the cursor's place in the wrapped text (a private-use character: nothing a person types is sanitized into it). */
const CURSOR = "\uE000";

/** The text as the popup shows it: sanitized, wrapped, the cursor marked just before the cell it is on. */
export function cursorLines(e: EditorState, width: number): string[] {
  const clean = (part: string) => sanitize(part.replaceAll(CURSOR, ""), { multiline: true });
  const marked = clean(e.text.slice(0, e.cursor)) + CURSOR + clean(e.text.slice(e.cursor));
  return wrapText(marked, width).split("\n");
}

export function openEditText(ctx: ActionContext, spec: EditTextSpec): void {
  ctx.openPopup((close) => <EditText spec={spec} close={close} notify={ctx.notify} />);
}

function EditText({ spec, close, notify }: { spec: EditTextSpec; close: () => void; notify: ActionContext["notify"] }) {
  const { keymap } = useScreenState();
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const editor = useRef<EditorState>(editorReducer(EMPTY_EDITOR, { type: "set", text: spec.initial }));
  const busy = useRef(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [, setTick] = useState(0);
  const textWidth = Math.max(10, width - 4);

  const save = () => {
    if (busy.current) return;
    const text = editor.current.text;
    if (!text.trim()) return setProblem("The text is empty.");
    busy.current = true;
    void spec.save(text).then((r) => {
      busy.current = false;
      if (!r.ok) return setProblem(`Not saved: ${r.error.message}`);
      close();
      notify(spec.saved);
    });
  };

  useKeypress(
    (name, input) => {
      const action = keymap.action("popup.editText", name);
      if (action === "editText.cancel") close();
      else if (action === "editText.save") save();
      else if (action === "editText.newline") editor.current = editorReducer(editor.current, { type: "insert", text: "\n" });
      else if (action === "editText.lineUp" || action === "editText.lineDown") {
        editor.current = editorReducer(editor.current, { type: action === "editText.lineUp" ? "up" : "down", width: textWidth });
      }
      else {
        const e = editActionForKey(name, input, keymap);
        if (e) editor.current = editorReducer(editor.current, e);
      }
      setTick((t) => t + 1);
      return true;
    },
    { priority: 50 },
  );

  // The text wrapped to the popup with the cursor's cell marked, and only the lines around the cursor drawn.
  const room = Math.max(1, height - 3 - (spec.subtitle ? 1 : 0) - (problem ? 1 : 0));
  const lines = cursorLines(editor.current, textWidth);
  const at = Math.max(0, lines.findIndex((l) => l.includes(CURSOR)));
  const first = Math.max(0, Math.min(at - room + 1, lines.length - room));
  return (
    <Popup title={spec.title} hint={`${keymap.hint("editText.save")} save · ${keymap.hint("editText.newline")} new line · ${keymap.hint("editText.cancel")} cancel`} width={width} height={height}>
      {spec.subtitle ? <Text dimColor wrap="truncate">{sanitizeInline(spec.subtitle)}</Text> : null}
      {lines.slice(first, first + room).map((line, i) => {
        const [before, after] = line.split(CURSOR);
        if (after === undefined) return <Text key={first + i}>{line || " "}</Text>;
        return (
          <Text key={first + i}>
            {before}
            <Text inverse>{after[0] ?? " "}</Text>
            {after.slice(1)}
          </Text>
        );
      })}
      {problem ? <Text color={theme.error}>{sanitizeInline(problem)}</Text> : null}
    </Popup>
  );
}
