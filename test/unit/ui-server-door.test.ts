/**
 * The UI reaches the server through one door: the account handle, whose
 * actions are those of src/sync bound to the account. No file of src/ui
 * imports src/api at run time (type-only imports are fine: they vanish from
 * the bundle) or reaches through to the connection (`something.client.`);
 * and none can so much as name what stands behind the handle — the runtime,
 * its machine, outbox, journal, cache — nor import a part of src/sync other
 * than the handle, the actions' plain helpers (not the actions themselves:
 * the handle binds them) and the file-path helpers.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../fixtures/source-files.js";

const UI = "src/ui";
const API = resolve("src/api");
const SYNC = resolve("src/sync");

/** What stands behind the handle: the UI never names it. */
const HIDDEN = new Set([
  "SyncSession",
  "AccountRuntime",
  "AccountsRegistry",
  "UpdateMachine",
  "Outbox",
  "EditLane",
  "DraftJournal",
  "DraftSync",
  "CacheKeeper",
  "Commands",
  "PresenceReporter",
  "TypingNotifier",
  "ViewUpkeep",
  "ActionSession",
]);

/** The parts of src/sync the UI may import from, besides the actions' helpers. */
const OPEN_SYNC = new Set(["account-handle.ts", "file-paths.ts"].map((f) => join(SYNC, f)));

/** The functions of src/sync/actions that take the account first: the handle binds them; the UI calls them through it. */
function accountActions(): Set<string> {
  const names = new Set<string>();
  for (const f of sourceFiles(join("src", "sync", "actions"))) {
    const sf = ts.createSourceFile(f, readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true);
    for (const st of sf.statements) {
      if (!ts.isFunctionDeclaration(st) || !st.name || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const first = st.parameters[0]?.type?.getText(sf) ?? "";
      if (/Session\b/.test(first)) names.add(st.name.text);
    }
  }
  return names;
}

/** Every way `text` (the file at `file`) gets past the handle into src/sync. */
export function handleViolations(file: string, text: string, actions: ReadonlySet<string>): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const where = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) && n.moduleSpecifier.text.startsWith(".")) {
      const target = resolve(dirname(file), n.moduleSpecifier.text).replace(/\.js$/, ".ts");
      if (target.startsWith(SYNC + "/")) {
        const intoActions = target.startsWith(join(SYNC, "actions") + "/");
        if (!intoActions && !OPEN_SYNC.has(target)) found.push(`${where(n)} imports ${n.moduleSpecifier.text}, behind the account handle`);
        const named = ts.isImportDeclaration(n) ? n.importClause?.namedBindings : n.exportClause;
        if (intoActions && named && (ts.isNamedImports(named) || ts.isNamedExports(named))) {
          for (const el of named.elements) {
            const name = (el.propertyName ?? el.name).text;
            if (actions.has(name)) found.push(`${where(el)} imports the action ${name}: call it through the handle (account.actions.${name})`);
          }
        }
      }
    } else if (ts.isIdentifier(n) && HIDDEN.has(n.text)) {
      found.push(`${where(n)} names ${n.text}, behind the account handle`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  // What the project's checks grep for: the old session's parts, reached from the screen.
  text.split("\n").forEach((line, i) => {
    if (/session\.(machine|journal|outbox|commands|cache)\b/.test(line)) found.push(`${file}:${i + 1} reaches session.${/session\.(\w+)/.exec(line)![1]}`);
  });
  return found;
}

/** Every way `text` (the file at `file`) gets at the server other than through the actions. */
export function doorViolations(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const where = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const intoApi = (spec: string) => spec.startsWith(".") && (resolve(dirname(file), spec) + "/").startsWith(API + "/");
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && intoApi(n.moduleSpecifier.text)) {
      if (!n.importClause?.isTypeOnly) found.push(`${where(n)} imports ${n.moduleSpecifier.text} at run time`);
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) && intoApi(n.moduleSpecifier.text)) {
      if (!n.isTypeOnly) found.push(`${where(n)} re-exports ${n.moduleSpecifier.text} at run time`);
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = n.arguments[0];
      if (arg && ts.isStringLiteralLike(arg) && intoApi(arg.text)) found.push(`${where(n)} loads ${arg.text}`);
    } else if (ts.isPropertyAccessExpression(n) && n.name.text === "client") {
      found.push(`${where(n)} reaches the connection: ${n.getText(sf)}`);
    } else if (ts.isBindingElement(n) && ((n.propertyName ?? n.name).getText(sf) === "client")) {
      found.push(`${where(n)} takes the connection out: ${n.getText(sf)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe("the UI's one door to the server", () => {
  it("no file of src/ui imports src/api at run time or reaches the connection", () => {
    const files = sourceFiles(UI);
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((f) => doorViolations(relative(".", f), readFileSync(f, "utf8")));
    expect(found).toEqual([]);
  });

  it("no file of src/ui names or imports what stands behind the account handle", () => {
    const actions = accountActions();
    expect(actions.size).toBeGreaterThan(30);
    expect(actions.has("editMessage")).toBe(true);
    const found = sourceFiles(UI).flatMap((f) => handleViolations(relative(".", f), readFileSync(f, "utf8"), actions));
    expect(found).toEqual([]);
  });

  it("recognizes each way past the handle", () => {
    const file = join(UI, "popups", "Example.tsx");
    const sample = [
      'import type { AccountRuntime } from "../../sync/account-runtime.js";',
      'import { draftKey, type AccountHandle } from "../../sync/account-handle.js";',
      'import type { Outbox } from "../../sync/outbox.js";',
      'import { editMessage, type UpdateMessageParams } from "../../sync/actions/messages.js";',
      'import { formatSize } from "../../sync/actions/files.js";',
      "function f(j: DraftJournal) { return j; }",
      "const m = ctx.session.machine.store;",
      'import { completePath } from "../../sync/file-paths.js";',
    ].join("\n");
    const found = handleViolations(file, sample, accountActions());
    expect(found.map((f) => f.split(" ")[0])).toEqual([`${file}:1`, `${file}:1`, `${file}:3`, `${file}:3`, `${file}:4`, `${file}:6`, `${file}:7`]);
  });

  it("recognizes each way around the door, and lets type-only imports through", () => {
    const file = join(UI, "popups", "Example.tsx");
    const sample = [
      'import type { Message } from "../../api/schemas/common.js";',
      'export type { User } from "../../api/schemas/common.js";',
      'import { deleteMessage } from "../../api/routes/messages.js";',
      'import { type Draft, getDrafts } from "../../api/routes/drafts.js";',
      'import "../../api/http.js";',
      'export { describeError } from "../../api/errors.js";',
      'const m = await import("../../api/routes/users.js");',
      "await deleteMessage(ctx.session.machine.client, 1);",
      "const { client } = session.machine; void client.request;",
      "const c = session.machine.client;",
      'import { editMessage } from "../../sync/actions/messages.js";',
    ].join("\n");
    const found = doorViolations(file, sample);
    expect(found.map((f) => f.split(" ")[0])).toEqual([
      `${file}:3`,
      `${file}:4`,
      `${file}:5`,
      `${file}:6`,
      `${file}:7`,
      `${file}:8`,
      `${file}:9`,
      `${file}:10`,
    ]);
    expect(found[0]).toContain("imports ../../api/routes/messages.js at run time");
  });
});
