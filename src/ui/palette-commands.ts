/**
 * The command palette's entries: every operation that has no key of its
 * own. An entry knows when it applies (the open or selected channel and
 * topic, the user's role) and what it does (usually: open a small form or a
 * confirmation, then call the API through `ctx.attempt`, so a refusal shows
 * the server's message). Entries that need administrator rights are listed
 * only for users the model says may use them; where the model cannot tell,
 * the entry is listed and the server decides.
 */
import type { ActionContext } from "./app-context.js";
import { channelCommands } from "./palette-commands-channel.js";
import type { PaletteCommand } from "./palette-commands-context.js";
import { fileCommands } from "./palette-commands-files.js";
import { orgCommands } from "./palette-commands-org.js";
import { laterCommands } from "./palette-commands-later.js";
import { organizationCommands } from "./features/organizations.js";
import { readCommands } from "./palette-commands-read.js";
import { screenCommands } from "./screens.js";

export type { PaletteCommand } from "./palette-commands-context.js";

/** Every entry that applies now, in a stable order (the palette filters and ranks them): the open channel and topic's first. */
export function paletteCommands(ctx: ActionContext): PaletteCommand[] {
  return [...channelCommands(ctx), ...orgCommands(ctx), ...readCommands(ctx), ...fileCommands(ctx), ...laterCommands(ctx), ...organizationCommands(ctx), ...screenCommands(ctx.store)];
}
