/** Finding a conversation: recent conversations (b), the jump finder (Ctrl-P) and a jump to a date (Ctrl-T). */
import { askDateJump } from "../date-jump.js";
import type { Feature } from "../app-context.js";
import { openFinder } from "../popups/Finder.js";
import { revealInSidebar } from "./navigation.js";

export const findingFeature: Feature = {
  name: "finding",
  bindings: [
    { action: "recentView", keys: ["b"], context: "global", help: "Recent conversations: every topic and conversation by last activity" },
    { action: "finder", keys: ["C-p"], context: "global", help: "Go to anything: a channel, topic, person, conversation or view, by name" },
    { action: "dateJump", keys: ["C-t"], context: "global", help: "Jump to a date or time in the open narrow (2026-03-01, yesterday, monday 14:00)" },
    { action: "finder.go", keys: ["enter"], context: "finder", help: "Go to the chosen one" },
    { action: "finder.close", keys: ["escape"], context: "finder", help: "Close" },
    { action: "recent.type", keys: ["/"], context: "screen.recent", help: "Filter by typing (a channel, a topic or a name)" },
    { action: "recent.unread", keys: ["u"], context: "screen.recent", help: "Only unread conversations (again: all)" },
    { action: "recent.channel", keys: ["c"], context: "screen.recent", help: "Only the channel under the cursor (again: every channel)" },
    { action: "recent.people", keys: ["w"], context: "screen.recent", help: "Only conversations with people chosen by name" },
    { action: "recent.muted", keys: ["m"], context: "screen.recent", help: "Show muted topics and conversations too (again: leave them out)" },
    { action: "recent.clear", keys: ["C"], context: "screen.recent", help: "Clear the filters" },
    { action: "recent.more", keys: ["L"], context: "screen.recent", help: "Load older conversations (or try again after an error)" },
    { action: "recentFilter.done", keys: ["enter", "escape"], context: "screen.recent.filter", help: "Back to the list, keeping the filter" },
  ],
  actions: {
    finder: (ctx) => openFinder(ctx),
    dateJump: (ctx) => askDateJump(ctx),
    recentView: (ctx) => {
      ctx.dispatch({ type: "screen", id: "recent" });
      revealInSidebar(ctx, "view:recent");
    },
  },
};
