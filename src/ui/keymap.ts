/**
 * Key bindings as data: which keys do which named action in which scope.
 * Features and popups contribute bindings; settings may rebind any action.
 * The help overlay is generated from the result.
 *
 * A scope is the main screen's "global", "sidebar", "messages", "compose",
 * or a popup's own ("popup.confirm", "popup.emoji"…). The sidebar and the
 * message pane fall through to the global scope, the compose box to the
 * text editing keys, a popup's list mode to the popup, a form's field to
 * the form; the others stand alone (a popup takes every key).
 */
export type KeyContext = string;

export interface Binding {
  action: string;
  keys: string[];
  context: KeyContext;
  help: string;
}

/**
 * The scope a scope's unbound keys fall through to. Lists (src/ui/list/list-part.ts) fall
 * through to the shared "list" scope, or "list.filter" when letters type into a filter;
 * a list screen's own scope ("screen.recent"…) falls through to "screen", then "list".
 */
const FALLS_THROUGH: Record<string, string> = {
  sidebar: "global",
  messages: "global",
  compose: "edit",
  screen: "list",
  "popup.help": "list",
  "popup.info": "list",
  "popup.drafts": "list",
  "popup.people": "list",
  "popup.people.filter": "list.filter",
  palette: "list.filter",
  finder: "list.filter",
  "popup.pick": "list.filter",
  "screen.recent.filter": "list.filter",
  "popup.emoji": "list.filter",
  "popup.emoji.list": "popup.emoji",
  "popup.form.toggle": "popup.form",
  "popup.form.choice": "popup.form",
  "popup.form.pick": "popup.form",
};

function outerScope(scope: string): string | undefined {
  return FALLS_THROUGH[scope] ?? (scope.startsWith("screen.") ? "screen" : undefined);
}

/** Scopes in help order; scopes not listed follow in the order they were declared. */
const HELP_ORDER = ["global", "sidebar", "sidebar.filter", "messages", "compose", "compose.menu", "edit", "list", "list.filter", "screen"];

export interface Conflict {
  key: string;
  scope: KeyContext;
  actions: [string, string];
}

/** Two different actions one key means in one scope (or in a scope and the scope it falls through to). */
export function findConflicts(bindings: Binding[]): Conflict[] {
  const byScope = new Map<string, Map<string, string>>();
  const out: Conflict[] = [];
  for (const b of bindings) {
    let keys = byScope.get(b.context);
    if (!keys) byScope.set(b.context, (keys = new Map()));
    for (const k of b.keys) {
      const other = keys.get(k);
      if (other !== undefined && other !== b.action) out.push({ key: k, scope: b.context, actions: [other, b.action] });
      else keys.set(k, b.action);
    }
  }
  for (const [scope, keys] of byScope) {
    const outer = outerScope(scope);
    const outerKeys = outer ? byScope.get(outer) : undefined;
    if (!outerKeys) continue;
    for (const [k, action] of keys) {
      const other = outerKeys.get(k);
      if (other !== undefined && other !== action) out.push({ key: k, scope, actions: [other, action] });
    }
  }
  return out;
}

export function describeConflict(c: Conflict): string {
  return `"${c.key}" is bound to both ${c.actions[0]} and ${c.actions[1]} (${c.scope})`;
}

export class Keymap {
  private readonly index = new Map<string, string>();
  /** keysFor's and hint's answers: asked for by every footer and hint on every frame, the same for the keymap's life. */
  private readonly keysOf = new Map<string, readonly string[]>();
  private readonly hints = new Map<string, string>();

  constructor(readonly bindings: Binding[]) {
    for (const b of bindings) for (const k of b.keys) this.index.set(`${b.context}\u0000${k}`, b.action);
  }

  /**
   * Applies overrides (action → keys, replacing that action's keys in every
   * scope it appears in). Unknown actions are reported, not applied; an
   * override that would give a key two meanings in a scope is reported and
   * refused (that action keeps its default keys).
   */
  static withOverrides(bindings: Binding[], overrides: Record<string, string[]>): { keymap: Keymap; problems: string[] } {
    const known = new Set(bindings.map((b) => b.action));
    const problems: string[] = [];
    const before = new Set(findConflicts(bindings).map(describeConflict));
    let merged = bindings;
    for (const [action, keys] of Object.entries(overrides)) {
      if (!known.has(action)) {
        const near = [...known].filter((a) => a.toLowerCase().endsWith(action.toLowerCase()) || a.toLowerCase().startsWith(action.toLowerCase() + "."));
        problems.push(`settings: keys.${action}: no such action${near.length ? ` (did you mean ${near.slice(0, 3).join(", ")}?)` : " (the help screen names the actions)"}`);
        continue;
      }
      const candidate = merged.map((b) => (b.action === action ? { ...b, keys } : b));
      const fresh = findConflicts(candidate).filter((c) => !before.has(describeConflict(c)) && c.actions.includes(action));
      if (fresh.length > 0) {
        const c = fresh[0]!;
        const other = c.actions[0] === action ? c.actions[1] : c.actions[0];
        problems.push(`settings: keys.${action}: "${c.key}" is already bound to ${other} in ${c.scope}; keeping the default keys of ${action}`);
        continue;
      }
      merged = candidate;
    }
    return { keymap: new Keymap(merged), problems };
  }

  /** The action a key means in a scope (falling through to the scope's outer one, if any). */
  action(context: KeyContext, key: string): string | undefined {
    for (let scope: string | undefined = context; scope; scope = outerScope(scope)) {
      const a = this.index.get(`${scope}\u0000${key}`);
      if (a !== undefined) return a;
    }
    return undefined;
  }

  /** The keys bound to an action, for hints ("r to reply"). */
  keysFor(action: string): readonly string[] {
    let keys = this.keysOf.get(action);
    if (!keys) this.keysOf.set(action, (keys = this.bindings.filter((b) => b.action === action).flatMap((b) => b.keys)));
    return keys;
  }

  /** A short hint for an action's keys: the first two, an upper-case twin of a lower-case key left out ("y / Enter"). */
  hint(action: string, fallback = "?"): string {
    const key = `${action}\u0000${fallback}`;
    let hint = this.hints.get(key);
    if (hint === undefined) {
      const keys = this.keysFor(action);
      const shown = keys.filter((k) => !(k.length === 1 && k !== k.toLowerCase() && keys.includes(k.toLowerCase())));
      this.hints.set(key, (hint = shown.length ? shown.slice(0, 2).map(displayKey).join(" / ") : fallback));
    }
    return hint;
  }

  /** Help rows per scope, for the overlay. */
  helpRows(): Array<{ context: KeyContext; keys: string; help: string; action: string }> {
    const scopes = [...HELP_ORDER];
    for (const b of this.bindings) if (!scopes.includes(b.context)) scopes.push(b.context);
    return this.bindings
      .map((b, i) => ({ b, i }))
      .sort((x, y) => scopes.indexOf(x.b.context) - scopes.indexOf(y.b.context) || x.i - y.i)
      .map(({ b }) => ({ context: b.context, keys: b.keys.map(displayKey).join(" "), help: b.help, action: b.action }));
  }
}

const KEY_NAMES: Record<string, string> = {
  up: "↑",
  down: "↓",
  left: "←",
  right: "→",
  enter: "Enter",
  escape: "Esc",
  tab: "Tab",
  backspace: "Backspace",
  home: "Home",
  end: "End",
  pageup: "PgUp",
  pagedown: "PgDn",
  " ": "Space",
};
const MODIFIERS: Record<string, string> = { "C-": "Ctrl-", "M-": "Alt-", "S-": "Shift-" };

/** A key as the screen names it: "M-enter" → "Alt-Enter", "S-tab" → "Shift-Tab", " " → "Space". */
export function displayKey(k: string): string {
  let shown = "";
  let rest = k;
  for (let m = MODIFIERS[rest.slice(0, 2)]; m && rest.length > 2; m = MODIFIERS[rest.slice(0, 2)]) {
    shown += m;
    rest = rest.slice(2);
  }
  return shown + (KEY_NAMES[rest] ?? rest);
}
