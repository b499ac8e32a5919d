/**
 * The image previews of the account on screen: one cache per account (made
 * on first use, kept by the account's handle), the layout's `images` option,
 * and a re-render whenever an image becomes ready.
 */
import { useEffect, useMemo, useState } from "react";
import type { Store } from "../../model/store.js";
import type { AccountHandle } from "../../sync/account-handle.js";
import type { LayoutOptions } from "../message-layout.js";
import { drawnByTerminal, terminalGraphics } from "./graphics.js";
import { useTerminalCapabilities } from "../terminal/use-capabilities.js";
import { loadTerminalEncoders } from "./terminal-image.js";
import { ImagePreviews } from "./image-previews.js";
import { originalPath } from "./image-refs.js";
import { imagePreviewLines } from "./preview-lines.js";

/** Where the handle keeps an account's previews. */
const PREVIEWS = Symbol("image previews");

/**
 * The preview cache of an account. Images are decoded to at most 512 pixels a side where they
 * are drawn as half-blocks (two pixels a cell: more than any terminal's width), 1024 where the
 * terminal draws the pixels.
 */
export function previewsOf(account: Pick<AccountHandle, "actions" | "keep">): ImagePreviews {
  return account.keep(PREVIEWS, () => {
    // Asked at each decode: the terminal says how it draws images only after the first frame.
    const maxSide = () => (drawnByTerminal(terminalGraphics().mode) ? 1024 : 512);
    return new ImagePreviews(async (path, signal) => {
      try {
        return await account.actions.fetchUploadBytes(path, signal);
      } catch (err) {
        // A file the server did not thumbnail (older uploads): the file itself.
        const original = originalPath(path);
        if (original === undefined || signal.aborted) throw err;
        return account.actions.fetchUploadBytes(original, signal);
      }
    }, { maxSide });
  });
}

export function useImagePreviews(account: Pick<AccountHandle, "actions" | "keep">, store: Store | undefined, enabled: boolean, color: boolean) {
  const previews = useMemo(() => previewsOf(account), [account]);
  const [version, setVersion] = useState(previews.version);
  useEffect(() => previews.onChange(() => setVersion(previews.version)), [previews]);
  // Half-blocks until the terminal said how it draws images (the probe's answer comes after the first frame).
  const capabilities = useTerminalCapabilities();
  const graphics = capabilities.graphics;
  useEffect(() => {
    if (enabled && drawnByTerminal(graphics.mode)) void loadTerminalEncoders();
  }, [enabled, graphics.mode]);
  const site = store?.realm.url || undefined;
  const thumbnailFormats = store?.realm.thumbnailFormats;
  const images = useMemo<LayoutOptions["images"]>(() => {
    if (!enabled || graphics.mode === "off") return undefined;
    // Without colour there is no half-block art: the caption alone.
    const captionsOnly = !color && graphics.mode === "halfblocks";
    const cellPx = capabilities.cellPx;
    return (m, width) => imagePreviewLines({ previews, graphics, site, captionsOnly, thumbnailFormats, ...(cellPx && { cellPx }) }, m, width);
  }, [previews, enabled, color, site, thumbnailFormats, version, graphics, capabilities.cellPx]);
  return { images, previews, version };
}
