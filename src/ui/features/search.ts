/** Search (/): a prompt in the service's search syntax; results open as a search narrow (never marked read). */
import type { Feature } from "../app-context.js";
import { openSearchPrompt } from "../popups/SearchPrompt.js";

export const searchFeature: Feature = {
  name: "search",
  bindings: [{ action: "search", keys: ["/"], context: "global", help: "Search (channel:, topic:, sender:, is:, has:… ↑/↓ earlier searches)" }],
  actions: {
    search: (ctx) => openSearchPrompt(ctx),
  },
};
