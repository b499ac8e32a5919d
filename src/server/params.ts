// Typed access to request parameters, following the API conventions: scalars
// as text, arrays/objects JSON-encoded, booleans "true"/"false". Like the
// public service, a scalar may also arrive JSON-encoded (clients that encode
// every non-text value send `5`, `"5"` or `true`). Every name a handler reads
// (or declares with `accept`) counts as supported; the others are reported
// back in `ignored_parameters_unsupported`.

import { badRequest, missingArgument } from "./errors.js";

export class Params {
  private readonly used = new Set<string>();

  constructor(private readonly raw: Map<string, string>) {}

  static fromSearchParams(...sources: URLSearchParams[]): Params {
    const raw = new Map<string, string>();
    for (const source of sources) for (const [k, v] of source) raw.set(k, v);
    return new Params(raw);
  }

  /** Marks parameters as understood even though the handler does not read them. */
  accept(...names: string[]): void {
    for (const n of names) this.used.add(n);
  }

  has(name: string): boolean {
    this.used.add(name);
    return this.raw.has(name);
  }

  /** Names that were sent but never read nor accepted, in the order sent. */
  unsupported(): string[] {
    return [...this.raw.keys()].filter((k) => !this.used.has(k));
  }

  str(name: string): string | undefined {
    this.used.add(name);
    return this.raw.get(name);
  }

  reqStr(name: string): string {
    const v = this.str(name);
    if (v === undefined) throw missingArgument(name);
    return v;
  }

  int(name: string): number | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    return parseIntText(name, v);
  }

  reqInt(name: string): number {
    const v = this.int(name);
    if (v === undefined) throw missingArgument(name);
    return v;
  }

  bool(name: string): boolean | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    const t = unquote(v.trim()).toLowerCase();
    if (t === "true") return true;
    if (t === "false") return false;
    throw badRequest(`${name} is not a boolean`);
  }

  json(name: string): unknown {
    const v = this.str(name);
    if (v === undefined) return undefined;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw badRequest(`Argument "${name}" is not valid JSON.`);
    }
  }

  reqJson(name: string): unknown {
    const v = this.json(name);
    if (v === undefined) throw missingArgument(name);
    return v;
  }

  /** A JSON array of integers (a bare integer is also accepted as a one-element list). */
  intList(name: string): number[] | undefined {
    const v = this.json(name);
    if (v === undefined) return undefined;
    const list = (Array.isArray(v) ? v : [v]).map((x) => (typeof x === "string" && /^-?\d+$/.test(x.trim()) ? Number(x) : x));
    if (!list.every((x) => Number.isSafeInteger(x))) throw badRequest(`${name} is not a list of integers`);
    return list as number[];
  }

  strList(name: string): string[] | undefined {
    const v = this.json(name);
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw badRequest(`${name} is not a list of strings`);
    return v as string[];
  }
}

/** The text inside one pair of JSON string quotes, or the text itself. */
function unquote(text: string): string {
  return /^"[^"\\]*"$/.test(text) ? text.slice(1, -1).trim() : text;
}

export function parseIntText(name: string, text: string): number {
  const t = unquote(text.trim());
  if (!/^-?\d+$/.test(t)) throw badRequest(`${name} is not an integer`);
  const n = Number(t);
  if (!Number.isSafeInteger(n)) throw badRequest(`${name} is too large`);
  return n;
}
