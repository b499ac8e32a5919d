/**
 * After the first frame with data: the Markdown engine loads (bodies re-render
 * when it is ready), and the start-up measurement hears about the frame once.
 */
import { useEffect, useRef, useState } from "react";
import type { Store } from "../../model/store.js";
import { loadMarkdown } from "../../render/markdown.js";

/** Returns whether the Markdown engine is ready. */
export function useFirstFrame(store: Store | undefined, onFirstFrame: (() => void) | undefined): boolean {
  const [markdownReady, setMarkdownReady] = useState(false);
  const hasStore = store !== undefined;
  useEffect(() => {
    if (!hasStore) return;
    let live = true;
    const t = setTimeout(() => void loadMarkdown().then(() => live && setMarkdownReady(true)), 0);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [hasStore]);
  const firstFrame = useRef(onFirstFrame);
  useEffect(() => {
    if (store && firstFrame.current) {
      firstFrame.current();
      firstFrame.current = undefined;
    }
  }, [store]);
  return markdownReady;
}
