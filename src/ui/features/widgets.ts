/**
 * Polls and to-do lists: the view key on the selected message opens its
 * widget popup (vote, add an option, check a task off, add a task); on a
 * message with an image instead, it shows the image at full size.
 */
import type { Feature } from "../app-context.js";
import { openWidgetPopup } from "../popups/WidgetPopup.js";
import { imageRefs } from "../images/image-refs.js";
import { openImage } from "./images.js";

export const widgetsFeature: Feature = {
  name: "widgets",
  bindings: [
    { action: "msgView", keys: ["v"], context: "messages", help: "View: a poll or to-do list (vote, add an option, check off or add a task), or an image at full size (again: the next image)" },
    { action: "widget.close", keys: ["escape", "q", "v"], context: "popup.widget", help: "Close" },
    { action: "widget.down", keys: ["j", "down"], context: "popup.widget", help: "Next option or task" },
    { action: "widget.up", keys: ["k", "up"], context: "popup.widget", help: "Previous option or task" },
    { action: "widget.toggle", keys: ["enter", " "], context: "popup.widget", help: "Vote (or take the vote back); check a task off (or back on)" },
    { action: "widget.add", keys: ["a"], context: "popup.widget", help: "Add an option or a task (task: description)" },
    { action: "widgetAdd.submit", keys: ["enter"], context: "popup.widget.add", help: "Add it" },
    { action: "widgetAdd.cancel", keys: ["escape"], context: "popup.widget.add", help: "Cancel" },
    { action: "widgetAdd.erase", keys: ["backspace"], context: "popup.widget.add", help: "Erase a character" },
    { action: "widgetAdd.clear", keys: ["C-u"], context: "popup.widget.add", help: "Clear the line" },
  ],
  actions: {
    msgView: (ctx) => {
      const m = ctx.selected;
      if (!m) ctx.notify("Select a message first (j/k in the message pane)");
      else if (ctx.store.widgets.of(m)) openWidgetPopup(ctx, m.id);
      else if (imageRefs(m.content, ctx.store.realm.url || undefined).length > 0) openImage(ctx);
      else ctx.notify("Nothing to view in this message: no poll, to-do list or image");
    },
  },
};
