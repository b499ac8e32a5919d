/**
 * The mouse on the screen, while the reader has it on: the wheel moves through the part under
 * the pointer (messages in the message pane, rows in the sidebar and the list views); a click
 * on a sidebar row or a list view's row opens it as Enter would; a click on a message selects it, and on a link in it opens the link
 * (open-url.ts, as the links list does). Everything goes through the features' own actions, so
 * a click does what the keys do. While a popup is open the mouse leaves the screen under it
 * alone. Reports come through the keypress bus in their turn among the keys; this hook takes
 * every one, first, so none ever reaches a key handler (with the mouse off, one a terminal
 * sends all the same does nothing). The terminal is asked to report the mouse only while it
 * is on, and told to stop when it is turned off or the screen goes (screen-mode.ts also stops
 * it on every way out).
 */
import { useEffect, useRef, useState, type RefObject } from "react";
import { messageLinks } from "../../render/message-links.js";
import type { ActionContext } from "../app-context.js";
import { moveSelection } from "../features/core.js";
import { featureAction } from "../features/index.js";
import { openLink } from "../file-transfers.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { MOUSE_KEY, parseMouseReport, setMouseReporting, type MouseEvent } from "../terminal/mouse.js";
import type { UiAction, UiState } from "../ui-state.js";
import { HitMap, type Hit } from "./hit-map.js";
import { linkAt } from "./link-at.js";

export interface MouseInput {
  on: boolean;
  hits: HitMap;
  uiRef: RefObject<UiState>;
  dispatch: (a: UiAction) => void;
  /** The context for actions, built from the UI state as of the event (undefined before the store). */
  contextFor: (ui: UiState) => ActionContext | undefined;
  popupOpen: boolean;
  write: (sequence: string) => void;
}

/** Above every other handler of the keypress bus: mouse reports are for no one else. */
const MOUSE_PRIORITY = 1000;

/** Follows the mouse while it is on; returns the screen's hit map, for its parts to register with (withHitMap). */
export function useMouse(given: Omit<MouseInput, "hits">): HitMap {
  const [hits] = useState(() => new HitMap());
  const input = { ...given, hits };
  const latest = useRef(input);
  latest.current = input;
  const { on } = input;
  useEffect(() => {
    setMouseReporting(on, latest.current.write);
    if (on) return () => setMouseReporting(false, latest.current.write);
  }, [on]);
  useKeypress(
    (name, report) => {
      if (name !== MOUSE_KEY) return false;
      const event = latest.current.on ? parseMouseReport(report) : undefined;
      if (event) handleMouse(event, latest.current);
      return true;
    },
    { priority: MOUSE_PRIORITY },
  );
  return hits;
}

/** What one mouse event does on the screen. */
export function handleMouse(event: MouseEvent, p: Omit<MouseInput, "on" | "write">): void {
  if (event.kind !== "press" || p.popupOpen) return;
  const hit = p.hits.at(event.x, event.y);
  const ctx = hit && p.contextFor(p.uiRef.current);
  if (!hit || !ctx) return;
  if (event.button === "wheelUp" || event.button === "wheelDown") {
    const up = event.button === "wheelUp";
    if (hit.kind === "message") featureAction(up ? "up" : "down")?.(ctx);
    else if (hit.kind === "list") hit.list.move(up ? -1 : 1);
    else if (ctx.ui.sidebar.filter === null) featureAction(up ? "sidebarUp" : "sidebarDown")?.(ctx);
    return;
  }
  if (event.button !== "left") return;
  if (hit.kind === "sidebar") clickRow(ctx, hit.index, p);
  else if (hit.kind === "list") {
    if (ctx.ui.focus === "sidebar") ctx.dispatch({ type: "focus", focus: "messages" });
    hit.list.open(hit.index);
  } else clickMessage(ctx, hit);
}

function clickRow(ctx: ActionContext, index: number, p: Pick<MouseInput, "uiRef" | "dispatch" | "contextFor">): void {
  // While the sidebar is filtered its rows and cursor belong to the filter (typed keys, Enter).
  const row = ctx.sidebarRows[index];
  if (ctx.ui.sidebar.filter !== null || !row || row.kind === "header") return;
  p.dispatch({ type: "sidebar", cursor: index });
  const now = p.contextFor(p.uiRef.current);
  if (now) featureAction("sidebarOpen")?.(now);
}

function clickMessage(ctx: ActionContext, hit: Extract<Hit, { kind: "message" }>): void {
  const index = ctx.messages.findIndex((m) => m.id === hit.id);
  const m = ctx.messages[index];
  if (!m) return;
  moveSelection(ctx, index);
  if (ctx.ui.focus === "sidebar") ctx.dispatch({ type: "focus", focus: "messages" });
  if (hit.line.style !== "body" || hit.column < 0) return;
  const links = messageLinks(m.content, ctx.store.realm.url);
  const url = linkAt(hit.line.text, hit.column, links);
  if (url) void openLink(ctx, url, links.find((l) => l.url === url)?.label || url);
}
