/**
 * The compose box's behaviour: its text lives in a ref updated synchronously
 * (no key is ever lost between renders), is journaled through the sync
 * session on every change (restored after a crash), and is sent through the
 * outbox (queued while offline, sent exactly once).
 */
import { useRef, useState } from "react";
import { describeError } from "../../api/errors.js";
import { updateMessage } from "../../api/routes/messages.js";
import { narrowTitle } from "../../model/selectors.js";
import type { Store } from "../../model/store.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { draftKey } from "../../sync/draft-journal.js";
import type { SendTarget } from "../../sync/outbox.js";
import type { SyncSession } from "../../sync/session.js";
import type { ComposeOptions } from "../app-context.js";
import { EMPTY_EDITOR, editorReducer, type EditorAction, type EditorState } from "../compose-editor.js";
import { targetNarrow } from "../features/core.js";
import type { ComposeState, UiAction } from "../ui-state.js";

export function composeLabel(store: Store, target: SendTarget): string {
  return sanitizeInline(narrowTitle(store, targetNarrow(target)));
}

/** Checks a message against the organization's limits; returns what is wrong, if anything. */
export function composeProblem(store: Store, target: SendTarget, text: string): string | undefined {
  if (!text.trim()) return "The message is empty.";
  const max = store.realm.maxMessageLength;
  if (text.length > max) return `The message is ${text.length} characters long; the organization allows ${max}.`;
  if (target.type === "stream" && [...target.topic].length > store.realm.maxTopicLength) {
    return `The topic is longer than the organization's limit of ${store.realm.maxTopicLength} characters.`;
  }
  return undefined;
}

export function useCompose(deps: {
  store: Store | undefined;
  session: SyncSession;
  compose: ComposeState | undefined;
  dispatch: (a: UiAction) => void;
  onSent: () => void;
}) {
  const editor = useRef<EditorState>(EMPTY_EDITOR);
  const [, setTick] = useState(0);
  const [sending, setSending] = useState(false);
  const { store, session, compose, dispatch } = deps;

  function setText(text: string) {
    editor.current = editorReducer(editor.current, { type: "set", text });
    setTick((t) => t + 1);
  }

  return {
    editor,
    sending,
    open(target: SendTarget, opts: ComposeOptions = {}) {
      if (!store) return;
      if (compose) session.composeClosed();
      const restored = opts.editing ? "" : (session.composeOpened(target) ?? "");
      const initial = opts.initialText ?? "";
      setText(restored && initial ? `${restored}\n${initial}` : restored || initial);
      dispatch({ type: "compose", compose: { target, label: composeLabel(store, target), key: draftKey(target), editing: opts.editing } });
    },
    edit(action: EditorAction) {
      editor.current = editorReducer(editor.current, action);
      if (compose && !compose.editing) session.composeChanged(compose.target, editor.current.text);
      setTick((t) => t + 1);
    },
    /** Closes the box; the text stays in the journal for the next time this conversation is opened. */
    close() {
      session.composeClosed();
      dispatch({ type: "compose", compose: undefined });
    },
    async send() {
      if (!compose || !store || sending) return;
      const text = editor.current.text;
      const problem = composeProblem(store, compose.target, text);
      if (problem) {
        dispatch({ type: "composeError", error: problem });
        return;
      }
      if (compose.editing) {
        setSending(true);
        try {
          await updateMessage(session.machine.client, compose.editing.messageId, { content: text });
          editor.current = EMPTY_EDITOR;
          dispatch({ type: "compose", compose: undefined });
        } catch (err) {
          dispatch({ type: "composeError", error: `Not saved: ${describeError(err)} — your text is kept` });
        } finally {
          setSending(false);
        }
        return;
      }
      session.send(compose.target, text);
      editor.current = EMPTY_EDITOR;
      session.composeClosed();
      dispatch({ type: "compose", compose: undefined });
      deps.onSent();
    },
  };
}
