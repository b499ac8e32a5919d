/**
 * Every key of the UI is in the keymap: no component of src/ui checks a key
 * by hand (a key name compared with a literal, Ink's key flags read, raw
 * input read). Only the translation of raw keypresses into key names
 * (keys.ts, hooks/use-keypress.tsx) looks at keys themselves; everything
 * else asks the keymap for the action a key means in its scope, or asks
 * keys.ts for the text a key types.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../fixtures/source-files.js";

const UI = "src/ui";
const TRANSLATORS = new Set([join(UI, "keys.ts"), join(UI, "hooks", "use-keypress.tsx")]);
/** Reads the terminal's mouse reports (which button, where), not keys. */
const TERMINAL_REPORTS = join(UI, "terminal", "mouse.ts");
/** The frame writer draws; it reads no keys. */
const NOT_SCANNED = join(UI, "ink-frame");

/** Names the bus gives keys that are not characters (bare, or after C-/M-/S-). */
const NAMED = new Set(["enter", "escape", "tab", "up", "down", "left", "right", "pageup", "pagedown", "home", "end", "backspace", "delete", "paste"]);
/** Of those, the ones no other string of the UI is likely to be ("home" is also a view). */
const ONLY_KEYS = new Set(["enter", "escape", "pageup", "pagedown", "backspace", "paste"]);
/** Ink's key flags: reading one is reading a raw keypress. */
const INK_FLAGS = new Set(["upArrow", "downArrow", "leftArrow", "rightArrow", "pageUp", "pageDown", "escape", "ctrl", "meta"]);
/** Flags whose names other objects use too (queue.shift(), map.delete()): counted only on a `key`. */
const INK_FLAGS_ON_KEY = new Set(["return", "tab", "backspace", "delete", "shift", "home", "end", "super", "hyper"]);
/** The names a key handler's parameters go by. */
const KEY_PARAMS = new Set(["name", "input", "key", "keyName", "text"]);

/** Whether a string is a key name: anywhere when it cannot be anything else, else compared with a key handler's parameter. */
function isKeyLiteral(s: string, withKeyParam: boolean): boolean {
  if (/^(?:[CMS]-)+./.test(s) || ONLY_KEYS.has(s)) return true;
  return withKeyParam && (NAMED.has(s) || [...s].length === 1);
}

/** Every place in `text` (the file at `file`) that decides what a key does without the keymap. */
export function handChecks(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const where = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const keyParam = (n: ts.Node) => ts.isIdentifier(n) && KEY_PARAMS.has(n.text);
  const literal = (n: ts.Node): string | undefined => (ts.isStringLiteralLike(n) ? n.text : undefined);
  const visit = (n: ts.Node): void => {
    if (ts.isBinaryExpression(n) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(n.operatorToken.kind)) {
      for (const [side, other] of [
        [n.left, n.right],
        [n.right, n.left],
      ] as const) {
        const s = literal(side);
        if (s !== undefined && isKeyLiteral(s, keyParam(other))) found.push(`${where(n)} compares a key by hand: ${n.getText(sf)}`);
      }
    } else if (ts.isSwitchStatement(n) && keyParam(n.expression)) {
      const keys = n.caseBlock.clauses.filter((c): c is ts.CaseClause => ts.isCaseClause(c) && literal(c.expression) !== undefined && isKeyLiteral(literal(c.expression)!, true));
      if (keys.length) found.push(`${where(n)} switches on a key by hand: ${keys.map((c) => c.expression.getText(sf)).join(", ")}`);
    } else if (ts.isPropertyAccessExpression(n) && (INK_FLAGS.has(n.name.text) || (INK_FLAGS_ON_KEY.has(n.name.text) && ts.isIdentifier(n.expression) && n.expression.text === "key"))) {
      found.push(`${where(n)} reads a raw key flag: ${n.getText(sf)}`);
    } else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const method = n.expression.name.text;
      const arg = n.arguments[0];
      if (method === "test" && arg && keyParam(arg)) found.push(`${where(n)} tests a key with a pattern: ${n.getText(sf)}`);
      else if ((method === "startsWith" || method === "endsWith") && keyParam(n.expression.expression) && arg && /^[CMS]-$/.test(literal(arg) ?? "")) {
        found.push(`${where(n)} reads a key's modifier by hand: ${n.getText(sf)}`);
      } else if (method === "includes" && arg && keyParam(arg) && ts.isArrayLiteralExpression(n.expression.expression)) {
        const items = n.expression.expression.elements.map(literal);
        if (items.some((s) => s !== undefined && isKeyLiteral(s, true))) found.push(`${where(n)} lists keys by hand: ${n.getText(sf)}`);
      }
    } else if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && n.moduleSpecifier.text === "ink") {
      const named = n.importClause?.namedBindings;
      if (named && ts.isNamedImports(named) && named.elements.some((e) => (e.propertyName ?? e.name).text === "useInput")) found.push(`${where(n)} reads raw keypresses (useInput)`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe("every key in the keymap", () => {
  it("no component of src/ui checks a key by hand (keys outside the keymap: 0)", () => {
    const files = sourceFiles(UI).filter((f) => !TRANSLATORS.has(f) && f !== TERMINAL_REPORTS && !f.startsWith(NOT_SCANNED));
    expect(files.length).toBeGreaterThan(60);
    const found = files.flatMap((f) => handChecks(relative(".", f), readFileSync(f, "utf8")));
    expect(found).toEqual([]);
  });

  it("the translators themselves are where raw keys are read (so the exemption is not idle)", () => {
    for (const f of TRANSLATORS) expect(handChecks(f, readFileSync(f, "utf8")).length).toBeGreaterThan(0);
  });

  it("recognizes each way of checking a key by hand, and lets keymap lookups and other strings through", () => {
    const file = join(UI, "popups", "Example.tsx");
    const sample = [
      'import { Text, useInput } from "ink";',
      'if (name === "enter") close();',
      'if ("C-u" === k) clear();',
      'if (input === "y") yes();',
      "if (key.return || key.upArrow) go();",
      "if (key.ctrl && input) other();",
      'switch (name) { case "escape": break; case "j": break; }',
      "if (/^[1-9]$/.test(name)) pick();",
      'if (name.startsWith("M-")) return;',
      'if (["up", "k"].includes(name)) up();',
      'const action = keymap.action("popup.example", name);',
      'if (action === "example.close") close();',
      'if (kind === "channel" && row.kind !== "topic") skip();',
      'switch (a.type) { case "home": break; }',
      "queue.shift(); entries.delete(entry);",
      'if (c === "%") escape();',
    ].join("\n");
    const found = handChecks(file, sample);
    expect(found.map((f) => f.split(" ")[0])).toEqual([
      `${file}:1`,
      `${file}:2`,
      `${file}:3`,
      `${file}:4`,
      `${file}:5`,
      `${file}:5`,
      `${file}:6`,
      `${file}:7`,
      `${file}:8`,
      `${file}:9`,
      `${file}:10`,
    ]);
    expect(found[1]).toContain('compares a key by hand: name === "enter"');
  });
});
