/** The command palette (Ctrl-K): every operation without a key of its own — settings, status, folders, groups, users. */
import type { Feature } from "../app-context.js";
import { openPalette } from "../popups/Palette.js";

export const paletteFeature: Feature = {
  name: "palette",
  bindings: [{ action: "palette", keys: ["C-k"], context: "global", help: "Commands: channel and topic settings, status, folders, groups, users…" }],
  actions: {
    palette: (ctx) => openPalette(ctx),
  },
};
