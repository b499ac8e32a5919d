/**
 * Files: attaching from the compose box (Ctrl-T: paths with completion,
 * uploaded in turn, each link put in at the cursor), the links and
 * attachments of the selected message (L: open, copy, save), and the
 * popups' keys. The palette lists the same and your uploaded files.
 */
import { uploadLimitMib } from "../../sync/actions/files.js";
import type { ActionContext, Feature } from "../app-context.js";
import { uploadIntoCompose } from "../file-transfers.js";
import { openAttachFile } from "../popups/AttachFile.js";
import { openMessageLinks } from "../popups/MessageLinks.js";
import { replyTarget } from "./core.js";

/** Opens the file picker for the compose box (opening the box first for the selected conversation). */
export function attachToCompose(ctx: ActionContext): void {
  let key = ctx.latest().compose?.key;
  if (key === undefined) {
    const t = replyTarget(ctx);
    if (!t) return ctx.notify("Open a conversation or start a message first (c, x, r), then attach files.");
    ctx.openCompose(t);
    key = ctx.latest().compose?.key;
  }
  const limit = uploadLimitMib(ctx.store);
  if (limit <= 0) return ctx.notify("This organization does not accept file uploads.", "error");
  openAttachFile(ctx, limit, (files) => {
    const draft = key ?? ctx.latest().compose?.key;
    if (draft !== undefined) void uploadIntoCompose(ctx, files, draft);
  });
}

export function showMessageLinks(ctx: ActionContext): void {
  const m = ctx.selected;
  if (!m) return ctx.notify("Select a message first (j/k in the message pane)");
  openMessageLinks(ctx, m);
}

export const filesFeature: Feature = {
  name: "files",
  bindings: [
    { action: "attachFile", keys: ["C-t"], context: "compose", help: "Attach files (Tab completes paths; each link goes in at the cursor)" },
    { action: "messageLinks", keys: ["L"], context: "messages", help: "Links and files of the selected message: open, save, copy" },
    { action: "attach.close", keys: ["escape"], context: "popup.attach", help: "Cancel" },
    { action: "attach.complete", keys: ["tab"], context: "popup.attach", help: "Complete the path" },
    { action: "attach.submit", keys: ["enter"], context: "popup.attach", help: "Attach the files" },
    { action: "links.close", keys: ["escape", "q", "L"], context: "popup.links", help: "Close" },
    { action: "links.down", keys: ["j", "down"], context: "popup.links", help: "Next link" },
    { action: "links.up", keys: ["k", "up"], context: "popup.links", help: "Previous link" },
    { action: "links.open", keys: ["enter", "o"], context: "popup.links", help: "Open in the browser (over SSH: copy the link)" },
    { action: "links.save", keys: ["s"], context: "popup.links", help: "Save to the downloads directory" },
    { action: "links.saveAs", keys: ["S"], context: "popup.links", help: "Save to a path you choose" },
    { action: "links.copy", keys: ["y"], context: "popup.links", help: "Copy the link (OSC 52 clipboard)" },
    { action: "files.close", keys: ["escape", "q"], context: "popup.files", help: "Close" },
    { action: "files.down", keys: ["j", "down"], context: "popup.files", help: "Next file" },
    { action: "files.up", keys: ["k", "up"], context: "popup.files", help: "Previous file" },
    { action: "files.open", keys: ["enter", "o"], context: "popup.files", help: "Open the file in the browser" },
    { action: "files.save", keys: ["s"], context: "popup.files", help: "Save the file to the downloads directory" },
    { action: "files.delete", keys: ["x", "d"], context: "popup.files", help: "Delete the file (asks first)" },
  ],
  actions: {
    attachFile: attachToCompose,
    messageLinks: showMessageLinks,
  },
};
