/** Palette entries for files: attach to the message being written, the selected message's links, your uploaded files. */
import type { ActionContext } from "./app-context.js";
import { attachToCompose, showMessageLinks } from "./features/files.js";
import type { PaletteCommand } from "./palette-commands-context.js";
import { openAttachments } from "./popups/Attachments.js";

export function fileCommands(ctx: ActionContext): PaletteCommand[] {
  const out: PaletteCommand[] = [{ id: "files.attach", title: "Attach files to a message", detail: "upload", run: attachToCompose }];
  if (ctx.selected) out.push({ id: "files.links", title: "Links and files of the selected message", detail: "open, save, copy", run: showMessageLinks });
  out.push({ id: "files.mine", title: "Your uploaded files", detail: "list, open, delete", run: openAttachments });
  return out;
}
