/**
 * The UI reaches the server through one door: the actions of src/sync. No
 * file of src/ui imports src/api at run time (type-only imports are fine:
 * they vanish from the bundle) or reaches through to the connection
 * (`session.machine.client`, `something.client.`).
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../fixtures/source-files.js";

const UI = "src/ui";
const API = resolve("src/api");

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
