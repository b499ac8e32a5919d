/**
 * An image at full pane size: drawn by the terminal where it has a graphics protocol (kitty,
 * iTerm2, sixel), over blank cells the image layer keeps it on; with half-blocks (text, so it
 * works in every terminal) elsewhere. The next key closes it. The image comes from the preview
 * cache, fetched if it is not there yet: the server's thumbnail that covers the pane when it
 * makes them, else the file.
 */
import { Text } from "ink";
import { useEffect, useState } from "react";
import { t } from "../../render/glyphs.js";
import { halfBlockLines } from "../../render/images/half-blocks.js";
import { useScreenState } from "../contexts.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { displayKey } from "../keymap.js";
import { drawnByTerminal, terminalGraphics } from "../images/graphics.js";
import { cellPixels } from "../images/cell-size.js";
import { ImageBox } from "../images/ImageBox.js";
import { previewPath, type ImageRef } from "../images/image-refs.js";
import { imageLabel } from "../images/preview-lines.js";
import { previewsOf } from "../images/use-image-previews.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export function ImageViewer({ image, close }: { image: ImageRef; close: () => void }) {
  const { account, keymap, store } = useScreenState();
  const { width, height } = usePopupSize();
  const previews = previewsOf(account);
  const [, setVersion] = useState(previews.version);
  useEffect(() => previews.onChange(() => setVersion(previews.version)), [previews]);
  useKeypress(
    (name) => {
      if (keymap.action("popup.image", name) === "image.close") close();
      return true;
    },
    { priority: 50 },
  );
  const cols = Math.max(4, width - 4);
  const rows = Math.max(2, height - 3);
  const { mode, depth } = terminalGraphics();
  const label = imageLabel(image.label, image.path);
  const byTerminal = drawnByTerminal(mode);
  // The server's thumbnail that covers the pane (in the terminal's pixels, or two half-block pixels a cell), else the file.
  const cell = cellPixels();
  const covering = byTerminal ? { width: cols * cell.width, height: rows * cell.height } : { width: cols, height: rows * 2 };
  const path = previewPath(image.path, store.realm.thumbnailFormats, covering);
  const state = previews.get(path);
  const art = state.status === "ready" && !byTerminal ? previews.rendering(path, `full:${cols}x${rows}:${depth}`, (p) => halfBlockLines(p, cols, rows, depth)) ?? [] : [];
  return (
    <Popup title={label} hint={`${displayKey(keymap.keysFor("image.close")[0] ?? "escape")} close`} width={width} height={height}>
      {state.status === "loading" ? <Text dimColor>{t("Loading…")}</Text> : null}
      {state.status === "failed" ? <Text dimColor wrap="truncate">{`No preview: ${label}`}</Text> : null}
      {state.status === "ready" && byTerminal ? <ImageBox previews={previews} path={path} pixels={state.pixels} mode={mode} maxCols={cols} maxRows={rows} /> : null}
      {art.map((line, i) => (
        <Text key={i} wrap="truncate">
          {line}
        </Text>
      ))}
    </Popup>
  );
}
