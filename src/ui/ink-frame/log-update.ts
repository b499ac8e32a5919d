/**
 * A drop-in for Ink's `log-update` (the Ink patch swaps it in: scripts/ink-patch.mjs):
 * the one place that writes frames to the terminal. Each frame goes through the FrameWriter,
 * which writes only what changed, and is wrapped in synchronized output when the terminal
 * said it has it (sync-mode.ts). Same interface as Ink 6.8.0's log-update, and one flag more:
 * `drawsFullHeight`, on the alternate screen, where a frame as tall as the terminal is drawn by
 * its changes too (the Ink patch then skips Ink's own clear-and-redraw of such frames). A stream
 * that carries a FrameOverlay under FRAME_OVERLAY (the terminal's images) has it drawn over
 * every frame.
 */
import { FrameWriter, HIDE_CURSOR, SHOW_CURSOR, type CursorSpot, type FrameOverlay } from "./frame-writer.js";
import { BEGIN_SYNC, END_SYNC, syncSupported } from "./sync-mode.js";
import { usesAlternateScreen } from "../terminal/screen-mode.js";

/** The key under which a stream given to Ink carries what is drawn over its frames. */
export const FRAME_OVERLAY = Symbol.for("termchat.frame-overlay");

interface Stream {
  write(data: string): unknown;
  [FRAME_OVERLAY]?: FrameOverlay;
  columns?: number;
  rows?: number;
  isTTY?: boolean;
}

export interface LogUpdate {
  (str: string): boolean;
  clear(): void;
  done(): void;
  sync(str: string): void;
  setCursorPosition(position: CursorSpot | undefined): void;
  isCursorDirty(): boolean;
  willRender(str: string): boolean;
  drawsFullHeight: boolean;
}

function sameSpot(a: CursorSpot | undefined, b: CursorSpot | undefined): boolean {
  return a?.x === b?.x && a?.y === b?.y;
}

export function createLogUpdate(stream: Stream, { showCursor = false } = {}): LogUpdate {
  const overlay = stream[FRAME_OVERLAY];
  // The alternate screen is taken before Ink makes its writer (src/ui/run.tsx).
  const anchored = Boolean(stream.isTTY) && usesAlternateScreen();
  const writer = new FrameWriter({ anchored, ...(overlay && { overlay }) });
  let previous = "";
  let cursorHidden = false;
  let cursor: CursorSpot | undefined;
  let cursorDirty = false;
  let previousCursor: CursorSpot | undefined;
  const active = () => (cursorDirty ? cursor : undefined);
  const changes = (str: string, spot: CursorSpot | undefined) => str !== previous || !sameSpot(spot, previousCursor);
  const emit = (bytes: string) => {
    if (bytes === "") return;
    stream.write(stream.isTTY && syncSupported() ? BEGIN_SYNC + bytes + END_SYNC : bytes);
  };
  overlay?.attach?.(() => emit(writer.redrawOverlay()));

  const render = ((str: string): boolean => {
    const spot = active();
    cursorDirty = false;
    if (!changes(str, spot)) return false;
    let bytes = "";
    if (!showCursor && !cursorHidden) {
      if (stream.isTTY) bytes += HIDE_CURSOR;
      cursorHidden = true;
    }
    bytes += writer.render(str, stream.columns || 80, stream.rows || 24, spot);
    emit(bytes);
    previous = str;
    previousCursor = spot ? { ...spot } : undefined;
    return true;
  }) as LogUpdate;

  render.clear = () => {
    emit(writer.clear());
    previous = "";
    previousCursor = undefined;
  };
  render.done = () => {
    writer.reset();
    previous = "";
    previousCursor = undefined;
    if (!showCursor && cursorHidden) {
      if (stream.isTTY) stream.write(SHOW_CURSOR);
      cursorHidden = false;
    }
  };
  // Ink drew the frame itself (a frame as tall as the terminal, after clearing it).
  render.sync = (str: string) => {
    cursorDirty = false;
    writer.drawnElsewhere();
    previous = str;
    previousCursor = undefined;
  };
  render.setCursorPosition = (position) => {
    cursor = position;
    cursorDirty = true;
  };
  render.isCursorDirty = () => cursorDirty;
  render.willRender = (str) => changes(str, active());
  render.drawsFullHeight = anchored;
  return render;
}

export default { create: createLogUpdate };
