import { describe, expect, it } from "vitest";
import { FEATURES } from "../../src/ui/features/index.js";
import { editActionForKey } from "../../src/ui/compose-editor.js";
import { Keymap, findConflicts, describeConflict, displayKey, type Binding } from "../../src/ui/keymap.js";
import { typedText } from "../../src/ui/keys.js";

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
    expect(scopes.slice(0, 7)).toEqual(["global", "sidebar", "sidebar.filter", "messages", "compose", "compose.menu", "edit"]);
    expect(scopes).toEqual(expect.arrayContaining(["popup.confirm", "popup.emoji", "popup.help"]));
  });
});

describe("keys the screen names and text a key types", () => {
  it("names keys with their modifiers the way the screen shows them", () => {
    expect(["M-enter", "S-tab", "C-u", "M-backspace", " ", "pagedown", "j", "-", "C--"].map(displayKey)).toEqual([
      "Alt-Enter",
      "Shift-Tab",
      "Ctrl-u",
      "Alt-Backspace",
      "Space",
      "PgDn",
      "j",
      "-",
      "Ctrl--",
    ]);
  });

  it("a printable key types itself, a named or modified key types nothing, a paste types its text on one line", () => {
    expect(typedText("j", "j")).toBe("j");
    expect(typedText(" ", " ")).toBe(" ");
    expect(typedText("é", "é")).toBe("é");
    expect(typedText("enter", "")).toBeUndefined();
    expect(typedText("C-u", "u")).toBeUndefined();
    expect(typedText("M-x", "x")).toBeUndefined();
    expect(typedText("\x07", "\x07")).toBeUndefined();
    expect(typedText("paste", "two\r\nlines\tand\x1b[31mred")).toBe("two lines and[31mred");
    expect(typedText("paste", "\x1b")).toBeUndefined();
  });

  it("every key a form field, the sidebar filter and the compose list use is a binding of its scope", () => {
    const km = new Keymap(DEFAULTS);
    expect(km.action("popup.form.toggle", " ")).toBe("formToggle.flip");
    expect(km.action("popup.form.toggle", "tab")).toBe("form.next"); // a field falls through to its form
    expect(km.action("popup.form.pick", " ")).toBe("formPick.add");
    expect(km.action("popup.form.choice", "left")).toBe("formChoice.previous");
    expect(km.action("sidebar.filter", "C-u")).toBe("sidebarFilter.clear");
    expect(km.action("sidebar.filter", "j")).toBeUndefined(); // typed into the filter
    expect(km.action("compose.menu", "enter")).toBe("completeAccept");
    expect(km.action("compose", "M-enter")).toBe("newlineOrSend");
    expect(km.action("compose", "up")).toBe("lineUp");
    expect(km.action("compose", "C-u")).toBe("edit.killToStart");
  });

  it("refuses a field key that its form already uses", () => {
    const { problems } = Keymap.withOverrides(DEFAULTS, { "formToggle.on": ["tab"] });
    expect(problems).toEqual(['settings: keys.formToggle.on: "tab" is already bound to form.next in popup.form.toggle; keeping the default keys of formToggle.on']);
  });
});
