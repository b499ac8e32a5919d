/**
 * The pictures of the one terminal the process draws on (terminal-wide state, like the
 * terminal's capabilities): where the app's parts reserved them, and the layer that keeps the
 * screen's pictures in step with the frames. `withImageLayer` hands the layer to the frame
 * writer through the stream Ink writes to.
 */
import { FRAME_OVERLAY } from "../ink-frame/log-update.js";
import { ImageLayer } from "./image-layer.js";
import { ImageSources } from "./image-sources.js";

const sources = new ImageSources();
const layer = new ImageLayer(sources);

export function screenImages(): { sources: ImageSources; layer: ImageLayer } {
  return { sources, layer };
}

/** For tests: no source, nothing shown, no writer attached. */
export function resetScreenImages(): void {
  sources.clear();
  layer.reset();
}

/** The stream, carrying the image layer for the frame writer that Ink makes for it. */
export function withImageLayer<T extends object>(stream: T, overlay: ImageLayer = layer): T {
  return new Proxy(stream, {
    get(target, prop, receiver) {
      if (prop === FRAME_OVERLAY) return overlay;
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
