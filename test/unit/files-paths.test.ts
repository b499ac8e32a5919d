/** Paths a person types for an upload, and the name a download is saved under. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completePath, expandPath, freeName, safeFileName, saveTarget, splitPaths } from "../../src/sync/file-paths.js";

let home: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "termchat-paths-"));
  mkdirSync(join(home, "Documents"));
  mkdirSync(join(home, "Downloads"));
  writeFileSync(join(home, "Documents", "report-2026.pdf"), "x");
  writeFileSync(join(home, "Documents", "report-2025.pdf"), "x");
  writeFileSync(join(home, "Documents", "notes one.txt"), "x");
  writeFileSync(join(home, "Documents", ".hidden"), "x");
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("~ expansion", () => {
  it("expands ~ and ~/…, resolves relative paths against the working directory, and reads file:// URLs", () => {
    expect(expandPath("~", "/home/ann", "/tmp")).toBe("/home/ann");
    expect(expandPath("~/a/b.txt", "/home/ann", "/tmp")).toBe("/home/ann/a/b.txt");
    expect(expandPath("docs/x.png", "/home/ann", "/srv")).toBe("/srv/docs/x.png");
    expect(expandPath("~other/x", "/home/ann", "/srv")).toBe("/srv/~other/x");
    expect(expandPath("file:///tmp/a%20b.txt", "/home/ann", "/srv")).toBe("/tmp/a b.txt");
  });
});

describe("several paths in one line", () => {
  it("splits on spaces and keeps quoted and backslash-escaped ones whole, as terminals paste dropped files", () => {
    const none = () => false;
    expect(splitPaths("a.txt  b.png", none)).toEqual(["a.txt", "b.png"]);
    expect(splitPaths(`'my file.txt' "other one.pdf" third\\ file.md`, none)).toEqual(["my file.txt", "other one.pdf", "third file.md"]);
  });

  it("takes a line that is one existing path (spaces and all) as that path", () => {
    expect(splitPaths("~/Documents/notes one.txt", undefined, home, "/")).toEqual(["~/Documents/notes one.txt"]);
  });
});

describe("path completion", () => {
  it("completes ~ and a unique name, then adds a space for the next path", () => {
    expect(completePath("~/Doc", home).line).toBe("~/Documents/");
    expect(completePath("~/Documents/no", home)).toEqual({ line: "'~/Documents/notes one.txt' ", candidates: ["notes one.txt"] });
  });

  it("completes a common prefix and lists the candidates; hidden files only when asked for", () => {
    expect(completePath("~/Documents/rep", home)).toEqual({ line: "~/Documents/report-202", candidates: ["report-2025.pdf", "report-2026.pdf"] });
    expect(completePath("~/Documents/", home).candidates).toEqual(["notes one.txt", "report-2025.pdf", "report-2026.pdf"]);
    expect(completePath("~/Documents/.h", home).candidates).toEqual([".hidden"]);
  });

  it("completes only the last of several paths, relative ones against the working directory", () => {
    expect(completePath("a.txt Documents/report-2026", home, home).line).toBe("a.txt Documents/report-2026.pdf ");
  });

  it("leaves a line alone when nothing matches or the directory does not exist", () => {
    expect(completePath("~/nothing/here", home)).toEqual({ line: "~/nothing/here", candidates: [] });
    expect(completePath("~/Documents/zzz", home)).toEqual({ line: "~/Documents/zzz", candidates: [] });
  });
});

describe("saving without overwriting", () => {
  it("adds (1), (2)… before the extension while the name is taken", () => {
    const taken = new Set(["/d/photo.png", "/d/photo (1).png", "/d/README"]);
    const exists = (p: string) => taken.has(p);
    expect(freeName("/d", "photo.png", exists)).toBe("/d/photo (2).png");
    expect(freeName("/d", "README", exists)).toBe("/d/README (1)");
    expect(freeName("/d", "new.txt", exists)).toBe("/d/new.txt");
  });

  it("keeps a hostile name inside the directory and free of control characters", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("\u001b]52;c;AAAA\u0007evil\u202e.txt")).toBe("]52;c;AAAAevil.txt");
    expect(safeFileName("..")).toBe("download");
    expect(freeName("/d", "a/../../b.txt", () => false)).toBe("/d/b.txt");
  });

  it("saves into ~/Downloads by default, into a directory given, or under a file name given", () => {
    writeFileSync(join(home, "Downloads", "plan.pdf"), "x");
    expect(saveTarget(undefined, "plan.pdf", {}, home)).toBe(join(home, "Downloads", "plan (1).pdf"));
    expect(saveTarget("~/Documents", "plan.pdf", {}, home)).toBe(join(home, "Documents", "plan.pdf"));
    expect(saveTarget("~/Documents/report-2026.pdf", "plan.pdf", {}, home)).toBe(join(home, "Documents", "report-2026 (1).pdf"));
    expect(saveTarget("~/Documents/mine.pdf", "plan.pdf", {}, home)).toBe(join(home, "Documents", "mine.pdf"));
  });
});
