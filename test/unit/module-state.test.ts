/**
 * No module-level mutable state in src/ui, src/sync and src/model: several
 * accounts live side by side in one process, and whatever a module keeps for
 * itself is shared by all of them (and outlives the screen that wrote it).
 * State belongs to an account's runtime, its handle, or React state. The
 * terminal is the one thing there is one of per process: its state is listed
 * below, each entry with its reason.
 *
 * What counts as module-level mutable state: a `let` or `var` at the top of a
 * module; a collection or object made with `new` at the top of a module,
 * unless typed read-only (ReadonlySet, ReadonlyMap, readonly arrays) or of a
 * class that cannot change once made; an object or array literal at the top
 * of a module that any module of these directories changes (assigns to, or
 * calls a mutating method of); a class's static field that is not readonly.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../fixtures/source-files.js";

const DIRS = ["src/ui", "src/sync", "src/model"];

/** Terminal-wide state: one per process because there is one terminal. */
const ALLOWED: Record<string, string> = {
  "src/ui/terminal/capabilities.ts current": "the terminal's answers (graphics, synchronized output, cell size, background): one terminal",
  "src/ui/terminal/capabilities.ts listeners": "who hears when the terminal's answers change",
  "src/ui/terminal/answers.ts owedUntil": "how long the terminal may still answer the start-up questions: one terminal",
  "src/ui/terminal/answers.ts listeners": "who reads the terminal's answers as they arrive",
  "src/ui/terminal/mouse.ts reporting": "whether the terminal was asked to report the mouse (turned off on every way out)",
  "src/ui/terminal/screen-mode.ts alternate": "whether the terminal is on its alternate screen (given back on every way out)",
  "src/ui/ink-frame/key-frames.ts keyWaiting": "a key was handed to a handler and its frame is not to wait for Ink's frame window (one keyboard, one terminal)",
  "src/ui/images/terminal-image.ts encoders": "the terminal's image protocol encoders, loaded once when the terminal says it draws pictures",
  "src/ui/images/screen-images.ts sources": "the pictures the one terminal is asked to draw, by the frame writer's image layer",
  "src/ui/images/screen-images.ts layer": "the image layer of the one terminal, kept in step with every frame",
  "src/ui/ink-frame/line-grid.ts styleIds": "the frame writer's numbering of style lists, to compare the terminal's lines quickly",
  "src/ui/ink-frame/line-grid.ts styleKeys": "the frame writer's numbering of style lists, by their codes",
  "src/ui/ink-frame/line-grid.ts wideValueIds": "the frame writer's numbering of the characters of more than one UTF-16 unit it writes",
  "src/ui/ink-frame/output.ts styleLists": "the frame writer's parsed style codes (bounded), the same for whatever is drawn",
  "src/ui/ink-frame/output.ts lineCells": "the frame writer's lines cut into cells (bounded)",
  "src/ui/ink-frame/output.ts widths": "the frame writer's text widths (bounded)",
  "src/ui/ink-frame/output.ts slices": "the frame writer's cut lines (bounded)",
  "src/ui/ink-frame/output.ts frames": "the one terminal's last composed frame rows, reused when the next frame's row is the same, and the cells of the rows it joined, for the frame writer",
  "src/ui/ink-frame/line-grid.ts sharedEnds": "per style list (held weakly), whether two of its styles end with one code: the same for whatever is drawn",
  "src/ui/ink-frame/output.ts transitions": "the frame writer's escape codes between two styles, per pair of style lists",
  "src/ui/ink-frame/output.ts rightHalves": "the frame buffer's cell for the right half of a wide character, per style list (held weakly): the same for whatever is drawn",
  "src/sync/cache-ahead.ts ahead": "the cache files a start read before the code that takes them loaded, each taken once",
  "src/ui/startup-memory.ts collect": "V8's collector, asked for once per process after the first frame",
};

/** Classes whose instances cannot change once made. */
const FROZEN_CLASSES = new Set(["RegExp", "Intl.Collator", "Intl.Segmenter", "Intl.NumberFormat", "Intl.DateTimeFormat", "Intl.PluralRules", "TextEncoder", "TextDecoder", "Keymap"]);

const MUTATORS = new Set(["push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin", "set", "add", "delete", "clear"]);

interface Declared {
  file: string;
  name: string;
  line: number;
  kind: "let" | "new" | "literal" | "static";
  text: string;
}

function parse(file: string, text = readFileSync(file, "utf8")): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  return e;
}

/** The top-level declarations of a module that may hold mutable state. */
export function declarations(sf: ts.SourceFile): Declared[] {
  const file = relative(".", sf.fileName);
  const out: Declared[] = [];
  const at = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  for (const st of sf.statements) {
    if (ts.isClassDeclaration(st)) {
      for (const m of st.members) {
        const mods = ts.canHaveModifiers(m) ? ts.getModifiers(m) ?? [] : [];
        const isStatic = mods.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
        const readonly = mods.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword);
        if (ts.isPropertyDeclaration(m) && isStatic && !readonly) out.push({ file, name: `${st.name?.text}.${m.name.getText(sf)}`, line: at(m), kind: "static", text: m.getText(sf) });
      }
      continue;
    }
    if (!ts.isVariableStatement(st)) continue;
    const isConst = (st.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name)) continue;
      const name = d.name.text;
      if (!isConst) {
        out.push({ file, name, line: at(d), kind: "let", text: d.getText(sf) });
        continue;
      }
      if (!d.initializer) continue;
      const init = unwrap(d.initializer);
      const typed = d.type?.getText(sf) ?? "";
      if (ts.isNewExpression(init)) {
        const cls = init.expression.getText(sf);
        if (FROZEN_CLASSES.has(cls) || /^(Readonly(Set|Map|Array)<|readonly )/.test(typed)) continue;
        out.push({ file, name, line: at(d), kind: "new", text: d.getText(sf).slice(0, 120) });
      } else if (ts.isObjectLiteralExpression(init) || ts.isArrayLiteralExpression(init)) {
        out.push({ file, name, line: at(d), kind: "literal", text: d.getText(sf).slice(0, 120) });
      }
    }
  }
  return out;
}

/** The root name of `a.b[c].d`, if it is a plain identifier. */
function rootOf(e: ts.Expression): ts.Identifier | undefined {
  e = unwrap(e);
  while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = unwrap(e.expression);
  return ts.isIdentifier(e) ? e : undefined;
}

/** The local names (in `sf`) that change an object: assigned through, deleted from, or given to a mutating method. */
export function mutatedNames(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const note = (e: ts.Expression) => {
    const root = rootOf(e);
    if (root) names.add(root.text);
  };
  const isAccess = (e: ts.Expression) => ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e);
  const visit = (n: ts.Node): void => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment && isAccess(unwrap(n.left))) note(n.left);
    else if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken) && isAccess(unwrap(n.operand))) note(n.operand);
    else if (ts.isDeleteExpression(n)) note(n.expression);
    else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      if (MUTATORS.has(n.expression.name.text)) note(n.expression.expression);
      if (n.expression.getText(sf) === "Object.assign" && n.arguments[0]) note(n.arguments[0]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return names;
}

/** Local name → [module file, exported name] for the named imports of `sf` from relative paths. */
function importsOf(sf: ts.SourceFile): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.startsWith(".")) continue;
    const target = relative(".", resolve(dirname(sf.fileName), st.moduleSpecifier.text).replace(/\.js$/, ""));
    const named = st.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) for (const el of named.elements) out.set(el.name.text, [target, (el.propertyName ?? el.name).text]);
  }
  return out;
}

/** Every piece of module-level mutable state in `files`, as "file name (line): text". */
export function moduleState(files: Array<{ file: string; text: string }>): string[] {
  const parsed = files.map((f) => parse(f.file, f.text));
  const declared = parsed.flatMap(declarations);
  // Literals count as state only when something changes them: here, or where they are imported.
  const changed = new Set<string>();
  for (const sf of parsed) {
    const self = relative(".", sf.fileName).replace(/\.tsx?$/, "");
    const imports = importsOf(sf);
    for (const local of mutatedNames(sf)) {
      const from = imports.get(local);
      changed.add(from ? `${from[0]} ${from[1]}` : `${self} ${local}`);
    }
  }
  return declared
    .filter((d) => d.kind !== "literal" || changed.has(`${d.file.replace(/\.tsx?$/, "")} ${d.name}`))
    .map((d) => `${d.file} ${d.name} (line ${d.line}): ${d.text}`);
}

describe("module-level state in src/ui, src/sync and src/model", () => {
  const files = DIRS.flatMap((d) => sourceFiles(d)).map((file) => ({ file: relative(".", file), text: readFileSync(file, "utf8") }));

  it("there is none but the terminal's, each piece listed with its reason", () => {
    expect(files.length).toBeGreaterThan(150);
    const found = moduleState(files).filter((f) => !(f.split(" (line")[0]! in ALLOWED));
    expect(found).toEqual([]);
  });

  it("every entry of the list is still there (none kept for state that has gone)", () => {
    const found = new Set(moduleState(files).map((f) => f.split(" (line")[0]!));
    expect(Object.keys(ALLOWED).filter((k) => !found.has(k))).toEqual([]);
    for (const [where, why] of Object.entries(ALLOWED)) expect(why.length, where).toBeGreaterThan(20);
  });

  it("recognizes each kind of module-level state, and lets constants through", () => {
    const lib = join("src", "ui", "example-lib.ts");
    const user = join("src", "ui", "example-user.ts");
    const found = moduleState([
      {
        file: lib,
        text: [
          "let counter = 0;",
          "export const rows = { list: [] as number[] };",
          "export const LIMITS = { max: 3 };",
          "const seen = new Set<number>();",
          "const KINDS: ReadonlySet<string> = new Set(['a']);",
          "const RE = new RegExp('x');",
          "const cache = new Map<string, number>();",
          "const order = [1, 2, 3];",
          "const log: string[] = [];",
          "export class Box { static count = 0; static readonly NAME = 'box'; }",
          "export function f() { log.push('x'); return order.length + counter + seen.size + KINDS.size + cache.size; }",
        ].join("\n"),
      },
      { file: user, text: ['import { rows as r, LIMITS } from "./example-lib.js";', "r.list = [LIMITS.max];"].join("\n") },
    ]).map((f) => f.split(" (line")[0]);
    expect(found).toEqual([`${lib} counter`, `${lib} rows`, `${lib} seen`, `${lib} cache`, `${lib} log`, `${lib} Box.count`]);
  });
});
