import { describe, expect, it } from "vitest";
import { highlight, supportsLanguage } from "../../src/render/highlight.js";

const theme = new Proxy({} as Record<string, (s: string) => string>, {
  get: (_t, k) => (typeof k === "string" && ["keyword", "string", "comment", "number"].includes(k) ? (s: string) => `<${k}>${s}</${k}>` : undefined),
});

describe("code highlighting", () => {
  it("knows the common languages by name and by alias, and not others", () => {
    for (const name of ["js", "javascript", "ts", "py", "python", "sh", "bash", "json", "yaml", "yml", "go", "rust", "rs", "sql", "html", "xml", "c", "cpp", "java", "diff", "toml"]) {
      expect(supportsLanguage(name), name).toBe(true);
    }
    expect(supportsLanguage("nosuchlanguage")).toBe(false);
    expect(supportsLanguage("python3 extra")).toBe(false);
  });

  it("styles tokens by class and gives the code back unchanged otherwise", () => {
    const src = 'if (a < b && c > "d") { return 1; } // done';
    const out = highlight(src, { language: "js", ignoreIllegals: true, theme });
    expect(out).toContain("<keyword>if</keyword>");
    expect(out).toContain('<string>"d"</string>');
    expect(out).toContain("<comment>// done</comment>");
    expect(out.replace(/<\/?(keyword|string|comment|number)>/g, "")).toBe(src); // entities decoded: < > & "
  });

  it("styles each line of a multi-line token separately", () => {
    const out = highlight('x = """one\ntwo"""', { language: "python", ignoreIllegals: true, theme });
    expect(out).toContain('<string>"""one</string>\n<string>two"""</string>');
  });
});
