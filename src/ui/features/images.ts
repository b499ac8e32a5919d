/** Images: v (the view key, shared with polls and to-do lists) opens the selected message's image at full pane size (the first; again for the next one). */
import { createElement } from "react";
import type { ActionContext, Feature } from "../app-context.js";
import { imageRefs } from "../images/image-refs.js";
import { ImageViewer } from "../popups/ImageViewer.js";

/** Opens the selected message's image at full pane size (the next one when asked again on the same message). */
export function openImage(ctx: ActionContext): void {
  const m = ctx.selected;
  if (!m) return ctx.notify("Select a message first (j/k in the message pane)");
  if (ctx.settings.imagePreviews === false) return ctx.notify("Image previews are off (settings: imagePreviews)");
  const refs = imageRefs(m.content, ctx.store.realm.url || undefined);
  if (refs.length === 0) return ctx.notify("No image in this message");
  const last = ctx.ui.image;
  const index = last?.messageId === m.id ? (last.index + 1) % refs.length : 0;
  ctx.dispatch({ type: "image", messageId: m.id, index });
  const image = refs[index]!;
  ctx.openPopup((close) => createElement(ImageViewer, { image, close }));
}

export const imagesFeature: Feature = {
  name: "images",
  bindings: [
    { action: "image.close", keys: ["escape", "q", "v"], context: "popup.image", help: "Close" },
  ],
  actions: {},
};
