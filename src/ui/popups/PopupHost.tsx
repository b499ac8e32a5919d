/**
 * Popups stack over the main area; only the top one is drawn and receives
 * keys (each popup registers its own handler at a priority above the main
 * screen's). A popup closes itself through the `close` it was given.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import type { PopupRender } from "../app-context.js";

interface Entry {
  id: number;
  render: PopupRender;
}

export function usePopupStack() {
  const [stack, setStack] = useState<Entry[]>([]);
  const next = useRef(1);
  const open = useCallback((render: PopupRender) => {
    const id = next.current++;
    setStack((s) => [...s, { id, render }]);
  }, []);
  const closeTop = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  return { stack, open, closeTop, setStack };
}

const SizeContext = createContext({ width: 60, height: 20 });

export function usePopupSize(): { width: number; height: number } {
  return useContext(SizeContext);
}

export function PopupHost({ stack, onClose, width, height }: { stack: Entry[]; onClose: (id: number) => void; width: number; height: number }): ReactNode {
  const top = stack[stack.length - 1];
  const size = useMemo(() => ({ width, height }), [width, height]);
  if (!top) return null;
  return <SizeContext.Provider value={size}>{top.render(() => onClose(top.id))}</SizeContext.Provider>;
}
