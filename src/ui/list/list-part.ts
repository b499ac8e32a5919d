/**
 * The one list part every list on screen uses (popups, list screens, finders):
 * a cursor, the window of rows that fits, and the shared keys. The keys come
 * from the keymap: a list's own scope ("popup.people", "palette"…) names its
 * own actions (close, choose…) and falls through to "list" (j/k, pages, first
 * and last) or, for a list filtered by typing, to "list.filter" (arrows,
 * Ctrl-N/Ctrl-P, pages), where letters are typed into the filter with the
 * text editing keys. So a new list is its rows and its own actions, not a
 * copied key handler.
 *
 * The cursor and the filter live in one object changed in place, so keys of a
 * burst each see what the key before them did (a render may not come between).
 * A scrolled text (help, message info) is a list without a selection: its
 * cursor is the first line shown.
 */
import { useReducer, useRef } from "react";
import { EMPTY_EDITOR, editorReducer, type EditorState } from "../compose-editor.js";
import { useKeypress } from "../hooks/use-keypress.js";
import type { Keymap } from "../keymap.js";
import { lineEdit } from "../popups/Form.js";

/** The list's place and filter; whoever opened the list may keep it, so it outlasts a popup opened over it. */
export interface ListModel {
  at: number;
  filter: EditorState;
}

export function newListModel(): ListModel {
  return { at: 0, filter: EMPTY_EDITOR };
}

/**
 * Where a list action moves the cursor, for `count` rows and `page` rows a page
 * (a grid of `columns` moves up and down by a row of cells); undefined for an
 * action that does not move.
 */
export function listStep(action: string | undefined, at: number, count: number, page: number, columns = 1): number | undefined {
  const last = Math.max(0, count - 1);
  const clamp = (i: number) => Math.max(0, Math.min(last, i));
  switch (action) {
    case "list.up":
    case "filter.up":
      return clamp(at - columns);
    case "list.down":
    case "filter.down":
      return clamp(at + columns);
    case "list.pageUp":
    case "filter.pageUp":
      return clamp(at - Math.max(1, page) * columns);
    case "list.pageDown":
    case "filter.pageDown":
      return clamp(at + Math.max(1, page) * columns);
    case "list.first":
      return 0;
    case "list.last":
      return last;
    default:
      return undefined;
  }
}

/** The first row shown: the cursor kept near the middle of `room` rows, the window inside the list. */
export function windowStart(at: number, count: number, room: number): number {
  return Math.max(0, Math.min(at - Math.floor(room / 2), count - room));
}

export interface ListOptions {
  /** The list's own key scope (falling through to "list" or "list.filter" in the keymap). */
  scope: string;
  keymap: Keymap;
  /** How many rows there are now (asked at key time, so a filter typed a key earlier counts). */
  count: () => number;
  /** Rows a page. */
  page: number;
  /** Cells a row, for a grid (the emoji picker). */
  columns?: number;
  /** Letters typed go into the filter (the list's scope falls through to "list.filter"). */
  filter?: boolean;
  /** The list's own actions, at the cursor's row: true when handled. */
  onAction?: (action: string, at: number) => boolean | void;
  /** Keys with no action in the list's scope (a mode of its own); true when handled. */
  onOtherKey?: (name: string, input: string) => boolean;
  /** After the filter changed (the cursor has gone back to the first row). */
  onFilter?: (text: string) => void;
  /** Where the cursor and filter live (default: the list's own). */
  model?: ListModel;
  /** A popup takes every key (the default); a list screen passes the ones it does not use on. */
  modal?: boolean;
  priority?: number;
  active?: boolean;
}

export interface ListPart {
  model: ListModel;
  /** The cursor, within the rows there are now. */
  at: (count: number) => number;
  /** Moves the cursor (clamped when read) and draws again. */
  setAt: (at: number) => void;
  setFilter: (text: string) => void;
  redraw: () => void;
}

/** The list part: the cursor and filter, and the shared keys on the keypress bus. */
export function useList(o: ListOptions): ListPart {
  const own = useRef<ListModel>(newListModel());
  const model = o.model ?? own.current;
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const at = (count: number) => Math.max(0, Math.min(model.at, count - 1));
  const setFilter = (text: string) => {
    model.filter = { text, cursor: text.length };
    model.at = 0;
    o.onFilter?.(text);
    redraw();
  };
  useKeypress(
    (name, input) => {
      const count = o.count();
      const here = at(count);
      const action = o.keymap.action(o.scope, name);
      const step = listStep(action, here, count, o.page, o.columns);
      if (step !== undefined) {
        model.at = step;
        redraw();
        return true;
      }
      if (action !== undefined && o.onAction?.(action, here)) {
        redraw();
        return true;
      }
      if (o.onOtherKey?.(name, input)) {
        redraw();
        return true;
      }
      if (o.filter) {
        const edit = lineEdit(name, input, o.keymap);
        if (edit) {
          const before = model.filter.text;
          model.filter = editorReducer(model.filter, edit);
          if (model.filter.text !== before) {
            model.at = 0;
            o.onFilter?.(model.filter.text);
          }
          redraw();
          return true;
        }
      }
      return o.modal ?? true;
    },
    { priority: o.priority ?? 50, active: o.active },
  );
  return {
    model,
    at,
    setAt: (i) => {
      model.at = Math.max(0, i);
      redraw();
    },
    setFilter,
    redraw,
  };
}
