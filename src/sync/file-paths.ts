/**
 * Paths a person types: `~` expanded, several in one line (quoted or with
 * backslash escapes, as terminals paste dropped files), completion of the
 * last one against the file system, and a free name to save a download
 * under (`name (1).ext` rather than overwriting).
 */
import { readdirSync, statSync, existsSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, extname, join, resolve } from "node:path";

/** `~` and `~/…` become the home directory; other paths are resolved against `cwd`. */
export function expandPath(raw: string, home = homedir(), cwd = process.cwd()): string {
  const p = raw.trim();
  if (p === "~") return home;
  if (p.startsWith("~/")) return join(home, p.slice(2));
  if (/^file:\/\//i.test(p)) {
    try {
      return decodeURIComponent(new URL(p).pathname);
    } catch {
      return p;
    }
  }
  return resolve(cwd, p);
}

/**
 * Splits a line into paths: spaces separate, quotes ('…', "…") and a
 * backslash keep them; a line that is one existing path is that path.
 */
export function splitPaths(line: string, exists: (p: string) => boolean = existsSync, home?: string, cwd?: string): string[] {
  const whole = line.trim();
  if (whole === "") return [];
  if (exists(expandPath(whole, home, cwd))) return [whole];
  const out: string[] = [];
  let cur = "";
  let quote: string | undefined;
  let any = false;
  for (let i = 0; i < whole.length; i++) {
    const ch = whole[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      any = true;
    } else if (ch === "\\" && i + 1 < whole.length) {
      cur += whole[++i];
      any = true;
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur);
      cur = "";
      any = false;
    } else cur += ch;
  }
  if (cur || any) out.push(cur);
  return out;
}

/** Quotes a path for the picker's line when it needs it. */
export function quotePath(p: string): string {
  return /[\s'"\\]/.test(p) ? `'${p.replace(/'/g, `'"'"'`)}'` : p;
}

export interface PathCompletion {
  /** The line with its last path completed as far as it is unambiguous. */
  line: string;
  /** What the last path could become (names only, directories end with "/"). */
  candidates: string[];
}

function lastWordStart(line: string): number {
  let start = 0;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "\\") i++;
    else if (/\s/.test(ch)) start = i + 1;
  }
  return start;
}

function commonPrefix(names: string[]): string {
  if (names.length === 0) return "";
  let p = names[0]!;
  for (const n of names) while (!n.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/** Completes the line's last path; hidden files only when the typed name starts with a dot. */
export function completePath(line: string, home = homedir(), cwd = process.cwd(), limit = 50): PathCompletion {
  const start = lastWordStart(line);
  const word = splitPaths(line.slice(start), () => false)[0] ?? "";
  const typedDir = word.endsWith("/") ? word : word.includes("/") ? word.slice(0, word.lastIndexOf("/") + 1) : "";
  const partial = word.slice(typedDir.length);
  const dir = typedDir === "" ? cwd : expandPath(typedDir, home, cwd);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(partial) && (partial.startsWith(".") || !n.startsWith(".")));
  } catch {
    return { line, candidates: [] };
  }
  names.sort();
  const marked = names.slice(0, limit).map((n) => {
    try {
      return statSync(join(dir, n)).isDirectory() ? `${n}/` : n;
    } catch {
      return n;
    }
  });
  const prefix = commonPrefix(marked.length === names.length ? marked : names);
  if (prefix.length <= partial.length) return { line, candidates: marked };
  // A single file is complete: a space follows it for the next path.
  const done = marked.length === 1 && !prefix.endsWith("/") ? " " : "";
  return { line: line.slice(0, start) + quotePath(typedDir + prefix) + done, candidates: marked };
}

/** Where downloads go: $XDG_DOWNLOAD_DIR, else ~/Downloads when it exists, else the home directory. */
export function downloadsDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const xdg = env["XDG_DOWNLOAD_DIR"];
  if (xdg && existsSync(xdg)) return xdg;
  const d = join(home, "Downloads");
  return existsSync(d) ? d : home;
}

/** A file name safe to create: no directories, no control characters, no leading dots. */
export function safeFileName(name: string): string {
  const cleaned = basename(name.replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/^\.+/, "")
    .trim();
  return cleaned === "" ? "download" : cleaned.slice(0, 200);
}

/** `dir/name`, or `dir/name (1).ext`, `(2)`… — the first that does not exist yet. */
export function freeName(dir: string, name: string, exists: (p: string) => boolean = existsSync, max = 1000): string {
  const safe = safeFileName(name);
  const first = join(dir, safe);
  if (!exists(first)) return first;
  const ext = extname(safe);
  const stem = ext && ext !== safe ? safe.slice(0, -ext.length) : safe;
  for (let n = 1; n <= max; n++) {
    const candidate = join(dir, `${stem} (${n})${ext}`);
    if (!exists(candidate)) return candidate;
  }
  throw new Error(`${max} files named like ${safe} already exist in ${dir}`);
}

/**
 * Where to save a file: the downloads directory without a path, inside a
 * directory that is given, else the path given; never an existing file
 * (` (1)` and so on are added instead).
 */
export function saveTarget(given: string | undefined, name: string, env: NodeJS.ProcessEnv = process.env, home = homedir(), cwd = process.cwd()): string {
  if (!given || given.trim() === "") return freeName(downloadsDir(env, home), name);
  const p = expandPath(given, home, cwd);
  try {
    if (statSync(p).isDirectory()) return freeName(p, name);
  } catch {
    // not there yet: the path names the file to create
  }
  return freeName(dirname(p), basename(p));
}
