/**
 * A small form in a popup: text lines, toggles, choices and pickers (a
 * filtered list: type to narrow it, ←/→ to choose; a multi-picker adds and
 * removes with Space). Tab/↓ and Shift-Tab/↑ move between fields, Enter
 * submits (each field validated first, the problem shown in the form), Esc
 * cancels. Every label and option is sanitized before it is drawn.
 */
import { Box, Text } from "ink";
import { useRef, useState, type ReactNode } from "react";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { EMPTY_EDITOR, editActionForKey, editorReducer, type EditorAction, type EditorState } from "../compose-editor.js";
import { useKeypress } from "../hooks/use-keypress.js";
import type { Keymap } from "../keymap.js";
import { fuzzyFilter } from "../palette-commands-match.js";
import { useTheme } from "../theme.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export interface Option {
  value: string;
  label: string;
  detail?: string;
}

export type Field =
  | {
      kind: "text";
      name: string;
      label: string;
      initial?: string;
      hint?: string;
      validate?: (v: string) => string | undefined;
      /** Shown after the value as it is typed: what it stands for (an emoji name's emoji), or what it could be. */
      preview?: (v: string) => string | undefined;
      /** A password: drawn as dots, never as typed. */
      secret?: boolean;
    }
  | { kind: "toggle"; name: string; label: string; initial?: boolean }
  | { kind: "choice"; name: string; label: string; options: Option[]; initial?: string }
  | { kind: "pick"; name: string; label: string; options: Option[]; initial?: string; multi?: boolean; required?: boolean };

export type FormValues = Record<string, string | boolean | string[] | undefined>;

export interface FormSpec {
  title: string;
  /** A line under the title: what the form changes ("#engineering"). */
  subtitle?: string;
  fields: Field[];
  /** A problem with the values as a whole (the form stays open and shows it). */
  check?: (values: FormValues) => string | undefined;
  /** Called after the form has closed (so it may open another popup). */
  onSubmit: (values: FormValues) => void;
}

export function openForm(ctx: ActionContext, spec: FormSpec): void {
  ctx.openPopup((close) => <Form spec={spec} keymap={ctx.keymap} close={close} />);
}

interface FieldState {
  editor: EditorState;
  on: boolean;
  index: number;
  picked: string[];
}

function initialState(f: Field): FieldState {
  const s: FieldState = { editor: EMPTY_EDITOR, on: false, index: 0, picked: [] };
  if (f.kind === "text") s.editor = editorReducer(EMPTY_EDITOR, { type: "set", text: f.initial ?? "" });
  if (f.kind === "toggle") s.on = f.initial ?? false;
  if (f.kind === "choice") s.index = Math.max(0, f.options.findIndex((o) => o.value === f.initial));
  if (f.kind === "pick") {
    if (f.multi && f.initial) s.picked = [f.initial];
    else s.index = Math.max(0, f.options.findIndex((o) => o.value === f.initial));
  }
  return s;
}

/** The options a picker shows for its typed filter. */
function pickMatches(f: Field & { kind: "pick" }, s: FieldState): Option[] {
  return s.editor.text ? fuzzyFilter(s.editor.text, f.options, (o) => `${o.label} ${o.detail ?? ""}`) : f.options;
}

export function fieldValue(f: Field, s: FieldState): string | boolean | string[] | undefined {
  switch (f.kind) {
    case "text":
      return s.editor.text;
    case "toggle":
      return s.on;
    case "choice":
      return f.options[s.index]?.value;
    case "pick":
      return f.multi ? s.picked : pickMatches(f, s)[s.index]?.value;
  }
}

export function Form({ spec, keymap, close }: { spec: FormSpec; keymap: Keymap; close: () => void }): ReactNode {
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [, setTick] = useState(0);
  // State in a ref, updated key by key: fast typing never loses a key.
  const states = useRef<FieldState[]>(spec.fields.map(initialState));
  const focus = useRef(0);
  const problem = useRef<string | undefined>(undefined);
  const rerender = () => setTick((t) => t + 1);

  const submit = () => {
    const values: FormValues = {};
    for (let i = 0; i < spec.fields.length; i++) {
      const f = spec.fields[i]!;
      const v = fieldValue(f, states.current[i]!);
      if (f.kind === "text" && f.validate) {
        const why = f.validate(v as string);
        if (why) return fail(i, why);
      }
      if (f.kind === "pick" && !f.multi && f.required !== false && v === undefined) {
        return fail(i, `${f.label}: nothing matches "${states.current[i]!.editor.text}"`);
      }
      values[f.name] = v;
    }
    const why = spec.check?.(values);
    if (why) return fail(focus.current, why);
    close();
    spec.onSubmit(values);
  };
  const fail = (i: number, why: string) => {
    focus.current = i;
    problem.current = why;
    rerender();
  };

  useKeypress(
    (name, input) => {
      const f = spec.fields[focus.current];
      const s = states.current[focus.current];
      const action = keymap.action(f ? fieldScope(f) : "popup.form", name);
      if (action === "form.cancel") close();
      else if (action === "form.apply") submit();
      else if (action === "form.next") focus.current = (focus.current + 1) % spec.fields.length;
      else if (action === "form.previous") focus.current = (focus.current - 1 + spec.fields.length) % spec.fields.length;
      else if (f && s) editField(f, s, action, name, input, keymap);
      if (action !== "form.apply") problem.current = undefined;
      rerender();
      return true;
    },
    { priority: 50 },
  );

  // The gutter's mark and a space, the label, a space; long labels are cut so the values stay in one column.
  const labelWidth = Math.min(Math.max(12, Math.floor(width / 2)), Math.max(...spec.fields.map((f) => f.label.length)) + 3);
  const inner = Math.max(10, width - 4 - labelWidth);
  const rows: ReactNode[] = [];
  spec.fields.forEach((f, i) => {
    const s = states.current[i]!;
    const focused = i === focus.current;
    rows.push(
      <Text key={f.name} wrap="truncate">
        <RowMark kind={focused ? "selected" : "none"} />
        <Text color={focused ? theme.accent : undefined} bold={focused}>
          {" " + fitLabel(sanitizeInline(f.label), labelWidth - 3) + " "}
        </Text>
        {renderField(f, s, focused, inner, theme.accent)}
      </Text>,
    );
    if (focused && f.kind === "pick") {
      const matches = pickMatches(f, s);
      const start = Math.max(0, Math.min(s.index - 2, matches.length - 5));
      matches.slice(start, start + 5).forEach((o, j) => {
        const at = start + j === s.index;
        const mark = f.multi ? (s.picked.includes(o.value) ? "[x] " : "[ ] ") : "";
        rows.push(
          <Text key={`${f.name}:${o.value}`} wrap="truncate" dimColor={!at}>
            {" ".repeat(labelWidth)}
            <Text inverse={at}>
              <RowMark kind={at ? "selected" : "none"} inverse={at} />
              {" " + mark + sanitizeInline(o.label) + (o.detail ? `  ${sanitizeInline(o.detail)}` : "")}
            </Text>
          </Text>,
        );
      });
    }
  });
  const hint = spec.fields.some((f) => f.kind === "pick" && f.multi) ? `${keymap.hint("formPick.add")} add/remove · ` : "";
  // A problem is said in full: it wraps, and the popup grows by the lines it takes.
  const problemText = problem.current ? sanitizeInline(problem.current) : "";
  const problemLines = problemText ? Math.ceil(displayWidth(problemText) / Math.max(1, width - 4)) : 0;
  return (
    <Popup title={sanitizeInline(spec.title)} hint={`${hint}${keymap.hint("form.next").split(" / ")[0]} next · ${keymap.hint("form.apply")} apply · ${keymap.hint("form.cancel")} cancel`} width={width} height={Math.min(height, rows.length + 5 + Math.max(1, problemLines))}>
      {spec.subtitle ? <Text dimColor wrap="truncate">{sanitizeInline(spec.subtitle)}</Text> : null}
      <Box flexDirection="column" marginTop={1}>
        {rows}
      </Box>
      {problemText ? (
        <Text color={theme.error} wrap="wrap">
          {problemText}
        </Text>
      ) : null}
    </Popup>
  );
}

function fitLabel(label: string, width: number): string {
  const cut = truncate(label, Math.max(1, width));
  return cut + " ".repeat(Math.max(0, width - displayWidth(cut)));
}

/** The keymap scope of a field's own keys (falling through to the form's). */
function fieldScope(f: Field): string {
  return f.kind === "text" ? "popup.form" : `popup.form.${f.kind}`;
}

function editField(f: Field, s: FieldState, action: string | undefined, name: string, input: string, keymap: Keymap): void {
  if (f.kind === "toggle") {
    if (action === "formToggle.flip") s.on = !s.on;
    else if (action === "formToggle.on") s.on = true;
    else if (action === "formToggle.off") s.on = false;
    return;
  }
  if (f.kind === "choice") {
    const n = f.options.length;
    if (action === "formChoice.next") s.index = (s.index + 1) % n;
    else if (action === "formChoice.previous") s.index = (s.index - 1 + n) % n;
    return;
  }
  if (f.kind === "pick") {
    const matches = pickMatches(f, s);
    if (action === "formPick.next") s.index = Math.min(matches.length - 1, s.index + 1);
    else if (action === "formPick.previous") s.index = Math.max(0, s.index - 1);
    else if (action === "formPick.add" && f.multi) {
      const v = matches[s.index]?.value;
      if (v !== undefined) s.picked = s.picked.includes(v) ? s.picked.filter((x) => x !== v) : [...s.picked, v];
    } else {
      const edit = lineEdit(name, input, keymap);
      if (edit && edit.type !== "left" && edit.type !== "right") {
        s.editor = editorReducer(s.editor, edit);
        s.index = 0;
      }
    }
    return;
  }
  const edit = lineEdit(name, input, keymap);
  if (edit) s.editor = editorReducer(s.editor, edit);
}

function renderField(f: Field, s: FieldState, focused: boolean, width: number, accent: string | undefined): ReactNode {
  switch (f.kind) {
    case "text": {
      const preview = f.preview ? sanitizeInline(f.preview(s.editor.text) ?? "") : "";
      if (f.secret) return <TextLine editor={{ ...s.editor, text: "•".repeat(s.editor.text.length) }} focused={focused} width={width} placeholder={f.hint} />;
      if (!preview) return <TextLine editor={s.editor} focused={focused} width={width} placeholder={f.hint} />;
      const room = Math.max(8, width - displayWidth(preview) - 2);
      return (
        <Text>
          <TextLine editor={s.editor} focused={focused} width={Math.min(room, displayWidth(s.editor.text) + 2)} placeholder={f.hint} />
          <Text color={accent}>{"  " + preview}</Text>
        </Text>
      );
    }
    case "toggle":
      return <Text>{s.on ? "[x] yes" : "[ ] no"}</Text>;
    case "choice":
      return <Text>{t`‹ ${sanitizeInline(f.options[s.index]?.label ?? "")} ›`}</Text>;
    case "pick": {
      if (f.multi) {
        const names = s.picked.map((v) => f.options.find((o) => o.value === v)?.label ?? v).map((s) => sanitizeInline(s));
        return (
          <Text>
            <TextLine editor={s.editor} focused={focused} width={Math.max(8, Math.floor(width / 3))} placeholder="type to filter" />
            <Text dimColor>{`  ${names.length ? names.join(", ") : "(none yet)"}`}</Text>
          </Text>
        );
      }
      const chosen = pickMatches(f, s)[s.index];
      return (
        <Text>
          <TextLine editor={s.editor} focused={focused} width={Math.max(8, Math.floor(width / 3))} placeholder="type to filter" />
          <Text bold>{t`  → ${chosen ? sanitizeInline(chosen.label) : "(no match)"}`}</Text>
        </Text>
      );
    }
  }
}

/** The edit a key makes in a one-line field: like the compose box's, with line breaks (pasted, or a chunk ending in Enter) as spaces. */
export function lineEdit(name: string, input: string, keymap?: Keymap): EditorAction | undefined {
  const edit = editActionForKey(name, input, keymap);
  return edit?.type === "insert" ? { type: "insert", text: edit.text.replace(/\r\n?|\n/g, " ") } : edit;
}

/** One line of editable text with a visible cursor, scrolled so the cursor stays in view. */
export function TextLine({ editor, focused, width, placeholder }: { editor: EditorState; focused: boolean; width: number; placeholder?: string }): ReactNode {
  const text = editor.text.replace(/\n/g, " ");
  if (!text && placeholder && !focused) return <Text dimColor>{sanitizeInline(placeholder)}</Text>;
  const room = Math.max(4, width - 1);
  const start = Math.max(0, editor.cursor - room + 1);
  const before = text.slice(start, editor.cursor);
  const at = text.slice(editor.cursor, editor.cursor + 1) || " ";
  const after = text.slice(editor.cursor + 1, start + room);
  if (!focused) return <Text>{sanitizeInline(text.slice(0, room))}</Text>;
  return (
    <Text>
      {sanitizeInline(before)}
      <Text inverse>{sanitizeInline(at)}</Text>
      {sanitizeInline(after)}
      {!text && placeholder ? <Text dimColor>{" " + sanitizeInline(placeholder)}</Text> : null}
    </Text>
  );
}
