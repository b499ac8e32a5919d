import { describe, expect, it } from "vitest";
import { FEATURES } from "../../src/ui/features/index.js";
import { editActionForKey } from "../../src/ui/compose-editor.js";
import { Keymap, findConflicts, describeConflict, type Binding } from "../../src/ui/keymap.js";

const DEFAULTS = FEATURES.flatMap((f) => f.bindings);

const SMALL: Binding[] = [
  { action: "help", keys: ["?"], context: "global", help: "Help" },
  { action: "down", keys: ["j"], context: "messages", help: "Down" },
  { action: "confirm.yes", keys: ["y", "enter"], context: "popup.confirm", help: "Yes" },
  { action: "confirm.no", keys: ["n", "escape"], context: "popup.confirm", help: "No" },
];

describe("keymap scopes", () => {
  it("the default bindings give no key two meanings in a scope", () => {
    expect(findConflicts(DEFAULTS).map(describeConflict)).toEqual([]);
  });

  it("a popup scope answers its own keys and does not fall through to the global scope", () => {
    const km = new Keymap(SMALL);
    expect(km.action("popup.confirm", "y")).toBe("confirm.yes");
    expect(km.action("popup.confirm", "escape")).toBe("confirm.no");
    expect(km.action("popup.confirm", "?")).toBeUndefined();
    expect(km.action("messages", "?")).toBe("help");
    expect(km.action("messages", "y")).toBeUndefined();
  });

  it("the emoji picker's list mode falls through to the picker's keys", () => {
    const km = new Keymap(DEFAULTS);
    expect(km.action("popup.emoji.list", "j")).toBe("emoji.listDown");
    expect(km.action("popup.emoji.list", "enter")).toBe("emoji.choose");
    expect(km.action("popup.emoji", "j")).toBeUndefined();
  });
});

describe("text editing keys", () => {
  it("the compose box falls through to them, and a rebound one edits", () => {
    const { keymap, problems } = Keymap.withOverrides(DEFAULTS, { "edit.home": ["M-a"] });
    expect(problems).toEqual([]);
    expect(keymap.action("compose", "enter")).toBe("send");
    expect(keymap.action("compose", "M-a")).toBe("edit.home");
    expect(editActionForKey("M-a", "a", keymap)).toEqual({ type: "home" });
    expect(editActionForKey("C-a", "a", keymap)).toBeUndefined();
    expect(editActionForKey("C-a", "a")).toEqual({ type: "home" });
  });

  it("refuses an editing key that the compose box already uses", () => {
    const { problems } = Keymap.withOverrides(DEFAULTS, { "edit.killLine": ["C-o"] });
    expect(problems).toEqual(['settings: keys.edit.killLine: "C-o" is already bound to externalEditor in compose; keeping the default keys of edit.killLine']);
  });
});

describe("keymap overrides", () => {
  it("rebinds a popup action", () => {
    const { keymap, problems } = Keymap.withOverrides(SMALL, { "confirm.yes": ["x"] });
    expect(problems).toEqual([]);
    expect(keymap.action("popup.confirm", "x")).toBe("confirm.yes");
    expect(keymap.action("popup.confirm", "y")).toBeUndefined();
    expect(keymap.hint("confirm.yes")).toBe("x");
  });

  it("refuses an override that binds a key to two actions of one scope, naming both and the key", () => {
    const { keymap, problems } = Keymap.withOverrides(SMALL, { "confirm.yes": ["n"] });
    expect(problems).toEqual(['settings: keys.confirm.yes: "n" is already bound to confirm.no in popup.confirm; keeping the default keys of confirm.yes']);
    expect(keymap.action("popup.confirm", "y")).toBe("confirm.yes");
    expect(keymap.action("popup.confirm", "n")).toBe("confirm.no");
  });

  it("refuses an override that clashes with the global scope a pane falls through to", () => {
    const { keymap, problems } = Keymap.withOverrides(SMALL, { down: ["?"] });
    expect(problems).toEqual(['settings: keys.down: "?" is already bound to help in messages; keeping the default keys of down']);
    expect(keymap.action("messages", "j")).toBe("down");
    expect(keymap.action("messages", "?")).toBe("help");
  });

  it("lets the same key mean different things in different popups", () => {
    const { problems } = Keymap.withOverrides(DEFAULTS, { "confirm.yes": ["x"], "help.close": ["x"] });
    expect(problems).toEqual([]);
  });

  it("reports an unknown action with the near names, and applies the rest", () => {
    const { keymap, problems } = Keymap.withOverrides(SMALL, { yes: ["x"], "confirm.no": ["q"] });
    expect(problems).toEqual(["settings: keys.yes: no such action (did you mean confirm.yes?)"]);
    expect(keymap.action("popup.confirm", "q")).toBe("confirm.no");
    const other = Keymap.withOverrides(SMALL, { frobnicate: ["x"] }).problems;
    expect(other).toEqual(["settings: keys.frobnicate: no such action (the help screen names the actions)"]);
  });

  it("lists the popup scopes after the main screen's in the help rows", () => {
    const scopes = [...new Set(new Keymap(DEFAULTS).helpRows().map((r) => r.context))];
    expect(scopes.slice(0, 4)).toEqual(["global", "sidebar", "messages", "compose"]);
    expect(scopes).toEqual(expect.arrayContaining(["popup.confirm", "popup.emoji", "popup.help"]));
  });
});
