/**
 * The compose box's behaviour: its text lives in a ref updated synchronously
 * (no key is ever lost between renders), is journaled through the sync
 * account on every change (restored after a crash), and is sent through the
 * outbox (queued while offline, sent exactly once). Edits of an existing
 * message are journaled too (under `edit:<id>`) and saved through the
 * outbox's edit lane.
 * Autocomplete is derived from the text at the cursor; its highlighted row
 * and "dismissed" mark live in refs next to the text.
 */
import type { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useStdin, useStdout } from "ink";
import { useRef, useState } from "react";
import type { Store } from "../../model/store.js";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { UpdateMessageParams } from "../../sync/actions/messages.js";
import { draftKey, editKey, type AccountHandle, type SendTarget } from "../../sync/account-handle.js";
import type { ActionContext, ComposeOptions } from "../app-context.js";
import { applySuggestion, channelNeeded, completionContext, contextKey, suggestionsFor, type CompletionContext, type Suggestion } from "../autocomplete.js";
import { EMPTY_EDITOR, editActionForKey, editorReducer, lineCount, type EditorAction, type EditorState } from "../compose-editor.js";
import { composeLabel, topicProblem } from "../compose-rules.js";
import { widgetHint } from "../components/Compose.js";
import { openEditTopic } from "../popups/TopicPrompt.js";
import { scheduleFromCompose } from "../send-later.js";
import type { ComposeState, UiAction } from "../ui-state.js";

export { composeLabel, topicProblem, topicsPolicy } from "../compose-rules.js";

export interface CompletionMenu {
  context: CompletionContext;
  items: Suggestion[];
  index: number;
}

/** The editor state plus the open autocomplete list (what the compose box draws). */
export type ComposeEditor = EditorState & { menu?: CompletionMenu };

export const MAX_COMPOSE_LINES = 6;
export const MAX_SUGGESTIONS = 5;

/** The journal key of an edit in progress (not a conversation: never synced as a server draft). */
export { editKey };

/** Checks a message against the organization's limits; returns what is wrong, if anything. */
export function composeProblem(store: Store, target: SendTarget, text: string, register?: Record<string, unknown>): string | undefined {
  if (!text.trim()) return "The message is empty.";
  const max = store.realm.maxMessageLength;
  if (text.length > max) return `The message is ${text.length} characters long; the organization allows ${max}.`;
  if (target.type === "stream") return topicProblem(store, target.channelId, target.topic, register);
  return undefined;
}

/** Rows the compose box takes (the text's lines as the box wraps them, border, label, poll/to-do line, error, autocomplete list). */
export function composeRows(compose: ComposeState | undefined, editor: ComposeEditor, textWidth: number): number {
  if (!compose) return 0;
  const widget = widgetHint(editor.text, "") !== undefined ? 1 : 0;
  return Math.min(MAX_COMPOSE_LINES, lineCount(editor, textWidth)) + 3 + widget + (compose.error ? 1 : 0) + (editor.menu?.items.length ?? 0);
}

/**
 * Runs $VISUAL / $EDITOR (else vi) on the text in a private temp file (0600)
 * with the terminal, and reads it back. Blocks until the editor exits (Ink
 * neither draws nor reads keys meanwhile). A failing editor changes nothing.
 */
export function runExternalEditor(text: string, spawn: typeof spawnSync, env: NodeJS.ProcessEnv = process.env): { text?: string; error?: string } {
  const command = env["VISUAL"]?.trim() || env["EDITOR"]?.trim() || "vi";
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), "termchat-compose-"));
    const file = join(dir, "message.md");
    writeFileSync(file, text, { mode: 0o600 });
    // The command may carry arguments ("code --wait"); the file goes in as "$1", never through the shell's parser.
    const r = spawn("/bin/sh", ["-c", `${command} "$1"`, "termchat-editor", file], { stdio: "inherit" });
    if (r.error) return { error: t`Could not run the editor (${sanitizeInline(command)}): ${r.error.message} — the text is unchanged` };
    if (r.status !== 0) {
      return { error: t`The editor (${sanitizeInline(command)}) ${r.signal ? `was stopped by ${r.signal}` : `exited with status ${r.status}`} — the text is unchanged` };
    }
    // Editors end files with a newline; a message does not.
    return { text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } catch (err) {
    return { error: t`Could not use the editor: ${err instanceof Error ? err.message : String(err)} — the text is unchanged` };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

export function useCompose(deps: {
  store: Store | undefined;
  account: AccountHandle;
  compose: ComposeState | undefined;
  dispatch: (a: UiAction) => void;
  /** The columns the box gives the text (↑/↓ move by the lines it shows). */
  textWidth: number;
  onSent: () => void;
}) {
  const editor = useRef<ComposeEditor>(EMPTY_EDITOR);
  const menuState = useRef<{ key?: string; query?: string; index: number; dismissed?: string; seen?: number }>({ index: 0 });
  const [, setTick] = useState(0);
  const [sending, setSending] = useState(false);
  const { store, account, compose, dispatch } = deps;
  const { setRawMode, isRawModeSupported } = useStdin();
  const { stdout, write } = useStdout();
  const register = account.registerInfo();

  /** Recomputes the autocomplete list for the current text and cursor. */
  function refreshMenu(): void {
    const e = editor.current;
    const c = store && compose ? completionContext(e.text, e.cursor) : undefined;
    const st = menuState.current;
    if (!c || !store || st.dismissed === contextKey(c)) {
      if (!c) st.dismissed = undefined;
      if (e.menu) editor.current = { text: e.text, cursor: e.cursor };
      return;
    }
    st.seen = store.version;
    const channelId = channelNeeded(store, c);
    if (channelId !== undefined && !store.topicsLoaded.has(channelId)) void account.actions.fetchTopics(channelId);
    const items = suggestionsFor(store, c, MAX_SUGGESTIONS);
    const key = contextKey(c);
    if (st.key !== key || st.query !== c.query) st.index = 0;
    st.key = key;
    st.query = c.query;
    const index = Math.min(st.index, Math.max(0, items.length - 1));
    editor.current = { text: e.text, cursor: e.cursor, menu: items.length ? { context: c, items, index } : undefined };
  }

  function setText(text: string) {
    editor.current = editorReducer(editor.current, { type: "set", text });
    menuState.current = { index: 0 };
    refreshMenu();
    setTick((t) => t + 1);
  }

  function edit(action: EditorAction) {
    const before = editor.current.text;
    editor.current = editorReducer(editor.current, action);
    const text = editor.current.text;
    if (compose && text !== before) {
      if (compose.editing) account.actions.editChanged(compose.editing.messageId, text);
      else account.actions.composeChanged(compose.target, text);
    }
    refreshMenu();
    setTick((t) => t + 1);
  }

  function moveMenu(delta: number) {
    const m = editor.current.menu;
    if (!m) return;
    const n = m.items.length;
    menuState.current.index = (((m.index + delta) % n) + n) % n;
    refreshMenu();
    setTick((t) => t + 1);
  }

  function accept() {
    const { menu, text, cursor } = editor.current;
    const item = menu?.items[menu.index];
    // Still loading: the list is redrawn when the users are in, and the choice is made then.
    if (!menu || !item || item.waiting) return;
    const next = applySuggestion(text, cursor, menu.context, item);
    edit({ type: "replace", text: next.text, cursor: next.cursor });
  }

  function dismissMenu() {
    const m = editor.current.menu;
    if (!m) return;
    menuState.current.dismissed = contextKey(m.context);
    refreshMenu();
    setTick((t) => t + 1);
  }

  /**
   * Ctrl-O: the text in $VISUAL/$EDITOR, with Ink's raw mode suspended while it runs. Node's
   * child-process modules load on the first use, not with the client; keys typed meanwhile wait
   * (they arrive as events, after the import's promise settles).
   */
  function externalEditor() {
    if (!compose) return;
    const open = compose;
    void import("node:child_process").then(({ spawnSync }) => editExternally(spawnSync, open));
  }

  function editExternally(spawn: typeof spawnSync, compose: ComposeState) {
    const raw = isRawModeSupported;
    if (raw) setRawMode(false);
    let result: ReturnType<typeof runExternalEditor>;
    try {
      result = runExternalEditor(editor.current.text, spawn);
    } finally {
      if (raw) setRawMode(true);
      // Full-screen editors leave the screen to us: clear it and draw the last frame again.
      if (stdout.isTTY) write("\u001b[?25l\u001b[2J\u001b[H");
    }
    if (result.error !== undefined) {
      dispatch({ type: "composeError", error: result.error });
    } else if (result.text !== undefined) {
      if (compose.error) dispatch({ type: "composeError", error: undefined });
      edit({ type: "replace", text: result.text, cursor: result.text.length });
    }
    setTick((t) => t + 1);
  }

  function close() {
    account.actions.composeClosed();
    menuState.current = { index: 0 };
    if (editor.current.menu) editor.current = { text: editor.current.text, cursor: editor.current.cursor };
    dispatch({ type: "compose", compose: undefined });
  }

  async function saveEdit(c: ComposeState & { editing: NonNullable<ComposeState["editing"]> }, text: string) {
    if (!store) return;
    const id = c.editing.messageId;
    const m = store.messages.byId.get(id);
    const p: UpdateMessageParams = {};
    if (!m || text !== m.content) p.content = text;
    const { topic, channelId } = c.editing;
    if (topic !== undefined && m?.type === "stream" && topic !== m.subject) p.topic = topic;
    if (channelId !== undefined && m?.type === "stream" && channelId !== m.stream_id) p.stream_id = channelId;
    if (p.topic !== undefined || p.stream_id !== undefined) p.propagate_mode = c.editing.propagateMode ?? "change_one";
    if (p.content === undefined && p.topic === undefined && p.stream_id === undefined) {
      account.actions.editDropped(id);
      close();
      dispatch({ type: "notice", text: "Nothing changed." });
      return;
    }
    setSending(true);
    try {
      const saved = await account.actions.editMessage(id, p);
      if (!saved.ok) {
        dispatch({ type: "composeError", error: t`Not saved: ${saved.error.message} — your text is kept` });
        return;
      }
      editor.current = EMPTY_EDITOR;
      close();
      // A move is said (and followed) when its event comes back: useMoveFollow, which knows where it went.
      const moved = p.topic !== undefined || p.stream_id !== undefined;
      if (saved.value === "queued") dispatch({ type: "notice", text: "Edit kept: it is saved when the server can be reached." });
      else if (!moved) dispatch({ type: "notice", text: "Message edited." });
    } finally {
      setSending(false);
    }
  }

  async function send() {
    if (!compose || !store || sending) return;
    const text = editor.current.text;
    const problem = composeProblem(store, compose.target, text, register);
    if (problem) {
      dispatch({ type: "composeError", error: problem });
      return;
    }
    if (compose.editing) {
      await saveEdit({ ...compose, editing: compose.editing }, text);
      return;
    }
    account.actions.send(compose.target, text);
    editor.current = EMPTY_EDITOR;
    menuState.current = { index: 0 };
    account.actions.composeClosed();
    dispatch({ type: "compose", compose: undefined });
    deps.onSent();
  }

  /** Send later (Ctrl-S): the text as it is, at a time chosen in a form; the box empties once the server has it. */
  function sendLater(ctx: ActionContext) {
    if (!compose || !store) return;
    if (compose.editing) return dispatch({ type: "composeError", error: "Only a new message can be sent later: save the edit with Enter" });
    const text = editor.current.text;
    const problem = composeProblem(store, compose.target, text, register);
    if (problem) return dispatch({ type: "composeError", error: problem });
    const c = compose;
    scheduleFromCompose(ctx, c, text, () => {
      if (ctx.latest().compose?.key !== c.key || editor.current.text !== text) return;
      editor.current = EMPTY_EDITOR;
      account.actions.composeChanged(c.target, "");
      close();
    });
  }

  // Each render: the list follows the store (topics fetched, users renamed).
  if (compose && store && menuState.current.seen !== store.version) refreshMenu();

  return {
    editor,
    sending,
    open(target: SendTarget, opts: ComposeOptions = {}) {
      if (!store) return;
      if (compose) account.actions.composeClosed();
      const initial = opts.initialText ?? "";
      let text: string;
      if (opts.editing) {
        text = account.actions.editText(opts.editing.messageId) ?? initial;
      } else {
        const restored = account.actions.composeOpened(target) ?? "";
        text = restored && initial ? `${restored}\n${initial}` : restored || initial;
        if (initial) account.actions.composeChanged(target, text);
      }
      setText(text);
      dispatch({ type: "compose", compose: { target, label: composeLabel(store, target), key: draftKey(target), editing: opts.editing } });
    },
    edit,
    close,
    send,
    /** The compose box's keys; false when the key is not the box's (the caller may try feature actions). */
    /** Handles a key of the compose box: false when it is not the box's; "typed" for text edits (see KeyHandler). */
    handleKey: (name: string, input: string, ctx: ActionContext): boolean | "typed" => {
      const menu = editor.current.menu;
      let action = ctx.keymap.action("compose", name);
      if (action === "newlineOrSend") action = ctx.settings.enterSends ? "newline" : "send";
      else if (action === "send" && !ctx.settings.enterSends) action = "newline";
      if (menu) {
        const accepting = action === "send" || ctx.keymap.action("compose.menu", name) === "completeAccept";
        if (action === "completeNext") menu.items.length === 1 ? accept() : moveMenu(1);
        else if (action === "completePrev") moveMenu(-1);
        else if (accepting) accept();
        else if (action === "cancel") dismissMenu();
        if (action === "completeNext" || action === "completePrev" || accepting || action === "cancel") return true;
      }
      if (action === "send") void send();
      else if (action === "newline") edit({ type: "insert", text: "\n" });
      else if (action === "cancel") close();
      else if (action === "externalEditor") externalEditor();
      else if (action === "sendLater") sendLater(ctx);
      else if (action === "completeNext" && compose?.editing && compose.target.type === "stream") openEditTopic(ctx);
      else if (action === "completeNext" || action === "completePrev") return true;
      else return handleText();
      return true;

      function handleText(): boolean | "typed" {
        if (action === "lineUp" || action === "lineDown") {
          edit({ type: action === "lineUp" ? "up" : "down", width: deps.textWidth });
          return "typed";
        }
        const e = editActionForKey(name, input, ctx.keymap);
        if (!e) return false;
        edit(e);
        return "typed";
      }
    },
  };
}
