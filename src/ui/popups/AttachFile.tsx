/**
 * Picking files to attach: a path line (`~` expanded, Tab completes the
 * last path, several paths at once, quoted or pasted), checked against the
 * organization's upload limit before anything is sent. Enter hands the
 * checked files on; a problem keeps the popup open and says what it is.
 */
import { Text } from "ink";
import { useRef, useState, type ReactNode } from "react";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { checkUpload, type LocalFile } from "../../sync/actions/files.js";
import { completePath, splitPaths } from "../../sync/file-paths.js";
import type { ActionContext } from "../app-context.js";
import { EMPTY_EDITOR, editorReducer, type EditorState } from "../compose-editor.js";
import { useKeypress } from "../hooks/use-keypress.js";
import type { Keymap } from "../keymap.js";
import { useTheme } from "../theme.js";
import { TextLine, lineEdit } from "./Form.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

/** Checks every path; the first problem, or the files. */
export async function checkPaths(line: string, limitMib: number): Promise<{ files: LocalFile[] } | { problem: string }> {
  const paths = splitPaths(line);
  if (paths.length === 0) return { problem: "Type a path (Tab completes it), or paste one or more." };
  const files: LocalFile[] = [];
  for (const p of paths) {
    const r = await checkUpload(p, limitMib);
    if (!r.ok) return { problem: r.error.message };
    files.push(r.value);
  }
  return { files };
}

export function openAttachFile(ctx: ActionContext, limitMib: number, onFiles: (files: LocalFile[]) => void): void {
  ctx.openPopup((close) => <AttachFile keymap={ctx.keymap} limitMib={limitMib} close={close} onFiles={onFiles} />);
}

export function AttachFile({ keymap, limitMib, close, onFiles }: { keymap: Keymap; limitMib: number; close: () => void; onFiles: (files: LocalFile[]) => void }): ReactNode {
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [, setTick] = useState(0);
  const editor = useRef<EditorState>(EMPTY_EDITOR);
  const candidates = useRef<string[]>([]);
  const problem = useRef<string | undefined>(undefined);
  const busy = useRef(false);
  const redraw = () => setTick((t) => t + 1);

  useKeypress(
    (name, input) => {
      if (busy.current) return true;
      const action = keymap.action("popup.attach", name);
      if (action === "attach.close") return close(), true;
      problem.current = undefined;
      if (action === "attach.complete") {
        const c = completePath(editor.current.text.slice(0, editor.current.cursor));
        const rest = editor.current.text.slice(editor.current.cursor);
        editor.current = { text: c.line + rest, cursor: c.line.length };
        candidates.current = c.candidates.length > 1 ? c.candidates : [];
        if (c.candidates.length === 0) problem.current = "Nothing matches that path.";
      } else if (action === "attach.submit") {
        busy.current = true;
        void checkPaths(editor.current.text, limitMib).then((r) => {
          busy.current = false;
          if ("problem" in r) {
            problem.current = r.problem;
            redraw();
          } else {
            close();
            onFiles(r.files);
          }
        });
      } else {
        const edit = lineEdit(name, input, keymap);
        if (edit) {
          editor.current = editorReducer(editor.current, edit);
          candidates.current = [];
        }
      }
      redraw();
      return true;
    },
    { priority: 50 },
  );

  const room = Math.max(0, height - 6);
  const shown = candidates.current.slice(0, room);
  const hint = `${keymap.hint("attach.complete")} complete · ${keymap.hint("attach.submit")} attach · ${keymap.hint("attach.close")} cancel`;
  return (
    <Popup title={`Attach files (up to ${limitMib} MiB each)`} hint={hint} width={width} height={Math.min(height, 6 + shown.length)}>
      <Text>
        <Text color={theme.accent}>{"path: "}</Text>
        <TextLine editor={editor.current} focused width={width - 12} placeholder="~/Documents/report.pdf (several: separate with spaces)" />
      </Text>
      {problem.current ? (
        <Text color={theme.error} wrap="truncate">
          {sanitizeInline(problem.current)}
        </Text>
      ) : (
        <Text dimColor wrap="truncate">
          {busy.current ? t("Checking…") : "Paths with spaces: quote them, or paste them as your terminal does."}
        </Text>
      )}
      {shown.map((c) => (
        <Text key={c} wrap="truncate">
          {"  " + sanitizeInline(c)}
        </Text>
      ))}
      {candidates.current.length > shown.length ? <Text dimColor>{t`  … ${candidates.current.length - shown.length} more`}</Text> : null}
    </Popup>
  );
}
