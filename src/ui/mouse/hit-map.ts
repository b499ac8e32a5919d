/**
 * Which part of the screen is under the pointer. The parts that answer the mouse (the sidebar,
 * the message pane, the list views) tell the screen's hit map, as they render, what each of their rows shows —
 * a plain assignment of what they computed anyway, so drawing stays as cheap as it was — and
 * where they are is read from Ink's layout only when a click or a wheel step comes.
 */
import type { DOMElement } from "ink";
import { createContext, createElement, useContext, useLayoutEffect, type ReactNode, type RefObject } from "react";
import { frameOffset } from "../images/image-sources.js";
import type { Line } from "../message-layout.js";

export interface SidebarRegion {
  kind: "sidebar";
  box: RefObject<DOMElement | null>;
  /** Rows at the box's top that are no list row (the filter line). */
  above: number;
  /** The index in the sidebar's rows of the first row shown, and how many are shown. */
  start: number;
  count: number;
}

export interface MessagesRegion {
  kind: "messages";
  box: RefObject<DOMElement | null>;
  /** The pane's rows from its top: whose message each is, and its line. */
  rows: ReadonlyArray<{ id: number; line: Line }>;
  /** Columns before a line's text (the gutter's mark and the body's indent). */
  textLeft: number;
}

/** A list view (the Inbox, Followed topics): its rows below its title, and what the pointer does to them. */
export interface ListRegion {
  kind: "list";
  box: RefObject<DOMElement | null>;
  above: number;
  start: number;
  count: number;
  /** Puts the cursor on the row and opens it, as Enter would. */
  open(index: number): void;
  /** Moves the cursor by `delta` rows. */
  move(delta: number): void;
}

export type Region = SidebarRegion | MessagesRegion | ListRegion;

export type Hit =
  | { kind: "sidebar"; index: number }
  | { kind: "message"; id: number; line: Line; column: number }
  | { kind: "list"; index: number; list: ListRegion };

/** Where a region's box is on the screen, in cells. */
export interface Place {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** What cell (x, y) of a region placed at `place` shows, if anything. */
export function hitIn(region: Region, place: Place, x: number, y: number): Hit | undefined {
  const row = y - place.top;
  const col = x - place.left;
  if (row < 0 || col < 0 || row >= place.height || col >= place.width) return undefined;
  if (region.kind !== "messages") {
    const i = row - region.above;
    if (i < 0 || i >= region.count) return undefined;
    return region.kind === "sidebar" ? { kind: "sidebar", index: region.start + i } : { kind: "list", index: region.start + i, list: region };
  }
  const r = region.rows[row];
  return r ? { kind: "message", id: r.id, line: r.line, column: col - region.textLeft } : undefined;
}

function placeOf(box: DOMElement | null): Place | undefined {
  const at = frameOffset(box);
  const node = box?.yogaNode;
  if (!at || !node) return undefined;
  return { ...at, width: Math.round(node.getComputedWidth()), height: Math.round(node.getComputedHeight()) };
}

/** The screen's regions, by kind (one sidebar, and one message pane or list view). */
export class HitMap {
  private readonly regions = new Map<Region["kind"], Region>();

  set(region: Region): void {
    this.regions.set(region.kind, region);
  }

  /** Forgets the region, if it is still the one `box` registered. */
  remove(kind: Region["kind"], box: RefObject<DOMElement | null>): void {
    if (this.regions.get(kind)?.box === box) this.regions.delete(kind);
  }

  /** What the cell at (x, y) of the screen (from 0) shows, as the last frame laid it out. */
  at(x: number, y: number): Hit | undefined {
    for (const region of this.regions.values()) {
      const place = placeOf(region.box.current);
      const hit = place && hitIn(region, place, x, y);
      if (hit) return hit;
    }
    return undefined;
  }
}

/** The screen's hit map; none (nothing registers) where no screen provides one, as in a part's own tests. */
export const HitMapContext = createContext<HitMap | undefined>(undefined);

/** Registers what the part in `box` shows with the screen's hit map, while it is mounted. */
export function useHitRegion(region: Region): void {
  const hits = useContext(HitMapContext);
  // Set while rendering: a click reads it against the frame this render draws.
  hits?.set(region);
  const { kind, box } = region;
  useLayoutEffect(() => () => hits?.remove(kind, box), [hits, kind, box]);
}

/** `screen`, with `hits` as the hit map its parts register with. */
export function withHitMap(hits: HitMap, screen: ReactNode): ReactNode {
  return createElement(HitMapContext.Provider, { value: hits }, screen);
}
