/**
 * Key bindings as data: which keys do which named action in which context.
 * Features contribute bindings; settings may rebind any action. The help
 * overlay is generated from the result.
 */
export type KeyContext = "global" | "sidebar" | "messages" | "compose";

export interface Binding {
  action: string;
  keys: string[];
  context: KeyContext;
  help: string;
}

export class Keymap {
  private readonly index = new Map<string, string>();

  constructor(readonly bindings: Binding[]) {
    for (const b of bindings) for (const k of b.keys) this.index.set(`${b.context}\u0000${k}`, b.action);
  }

  /**
   * Applies overrides (action → keys, replacing that action's keys in every
   * context it appears in). Unknown actions are reported, not applied.
   */
  static withOverrides(bindings: Binding[], overrides: Record<string, string[]>): { keymap: Keymap; problems: string[] } {
    const known = new Set(bindings.map((b) => b.action));
    const problems = Object.keys(overrides)
      .filter((a) => !known.has(a))
      .map((a) => `settings: keys.${a}: no such action (see the help screen for action names)`);
    const merged = bindings.map((b) => (overrides[b.action] ? { ...b, keys: overrides[b.action]! } : b));
    return { keymap: new Keymap(merged), problems };
  }

  /** The action a key means in a context (falling back to global bindings, except while composing). */
  action(context: KeyContext, key: string): string | undefined {
    return this.index.get(`${context}\u0000${key}`) ?? (context === "compose" ? undefined : this.index.get(`global\u0000${key}`));
  }

  /** The keys bound to an action, for hints ("r to reply"). */
  keysFor(action: string): string[] {
    return this.bindings.filter((b) => b.action === action).flatMap((b) => b.keys);
  }

  /** Help rows per context, for the overlay. */
  helpRows(): Array<{ context: KeyContext; keys: string; help: string; action: string }> {
    const order: KeyContext[] = ["global", "sidebar", "messages", "compose"];
    return this.bindings
      .map((b, i) => ({ b, i }))
      .sort((x, y) => order.indexOf(x.b.context) - order.indexOf(y.b.context) || x.i - y.i)
      .map(({ b }) => ({ context: b.context, keys: b.keys.map(displayKey).join(" "), help: b.help, action: b.action }));
  }
}

export function displayKey(k: string): string {
  const names: Record<string, string> = { up: "↑", down: "↓", left: "←", right: "→", enter: "Enter", escape: "Esc", tab: "Tab", pageup: "PgUp", pagedown: "PgDn" };
  return names[k] ?? k.replace(/^C-/, "Ctrl-").replace(/^M-/, "Alt-").replace(/^S-/, "Shift-");
}
