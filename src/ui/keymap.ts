/**
 * Key bindings as data: which keys do which named action in which context.
 * The help overlay is generated from this table.
 */
export type KeyContext = "global" | "sidebar" | "messages" | "compose";

export interface Binding {
  action: string;
  keys: string[];
  context: KeyContext;
  help: string;
}

export const DEFAULT_BINDINGS: Binding[] = [
  { action: "help", keys: ["?"], context: "global", help: "Show or hide this help" },
  { action: "quit", keys: ["q", "C-c"], context: "global", help: "Quit" },
  { action: "up", keys: ["k", "up"], context: "sidebar", help: "Move up" },
  { action: "down", keys: ["j", "down"], context: "sidebar", help: "Move down" },
  { action: "open", keys: ["enter"], context: "sidebar", help: "Open; on a channel, show or hide its topics" },
  { action: "expand", keys: ["l", "right"], context: "sidebar", help: "Open; on a channel, show its topics" },
  { action: "collapse", keys: ["h", "left"], context: "sidebar", help: "Collapse the channel" },
  { action: "first", keys: ["g", "home"], context: "sidebar", help: "First row" },
  { action: "last", keys: ["G", "end"], context: "sidebar", help: "Last row" },
  { action: "up", keys: ["k", "up"], context: "messages", help: "Previous message" },
  { action: "down", keys: ["j", "down"], context: "messages", help: "Next message" },
  { action: "pageUp", keys: ["K", "pageup"], context: "messages", help: "Page up" },
  { action: "pageDown", keys: ["J", "pagedown"], context: "messages", help: "Page down" },
  { action: "newest", keys: ["G", "end"], context: "messages", help: "Newest message" },
  { action: "reply", keys: ["r", "enter"], context: "messages", help: "Reply to the selected message's conversation" },
  { action: "back", keys: ["escape", "h", "left"], context: "messages", help: "Back to the sidebar" },
  { action: "send", keys: ["enter"], context: "compose", help: "Send" },
  { action: "newline", keys: ["C-j", "M-enter", "S-enter"], context: "compose", help: "New line" },
  { action: "cancel", keys: ["escape"], context: "compose", help: "Close the compose box (the text is kept)" },
];

export class Keymap {
  private readonly index = new Map<string, string>();

  constructor(readonly bindings: Binding[] = DEFAULT_BINDINGS) {
    for (const b of bindings) for (const k of b.keys) this.index.set(`${b.context}\u0000${k}`, b.action);
  }

  /** The action a key means in a context (falling back to global bindings). */
  action(context: KeyContext, key: string): string | undefined {
    return this.index.get(`${context}\u0000${key}`) ?? (context === "compose" ? undefined : this.index.get(`global\u0000${key}`));
  }

  /** Help rows per context, for the overlay. */
  helpRows(): Array<{ context: KeyContext; keys: string; help: string }> {
    return this.bindings.map((b) => ({ context: b.context, keys: b.keys.map(displayKey).join(" "), help: b.help }));
  }
}

function displayKey(k: string): string {
  const names: Record<string, string> = { up: "↑", down: "↓", left: "←", right: "→", enter: "Enter", escape: "Esc" };
  return names[k] ?? k.replace(/^C-/, "Ctrl-").replace(/^M-/, "Alt-").replace(/^S-/, "Shift-");
}
