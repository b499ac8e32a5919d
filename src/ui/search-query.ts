/**
 * The service's search syntax, parsed into narrow terms: `channel:name`
 * (`stream:`), `topic:` (`subject:`), `sender:email|me` (`from:`),
 * `dm:email,email` (`pm-with:`), `dm-including:`, `is:…`, `has:…`,
 * `near:id`, `id:id`, `with:id`, `channels:public`, a leading `-` to negate,
 * "quoted phrases" (also as operands: `topic:"release plan"`), and every
 * other word as full-text `search`. Pure: no store, no I/O.
 */
import type { NarrowTerm } from "../api/schemas/common.js";

export interface SearchTerm {
  operator: string;
  operand: string;
  negated?: boolean;
}

export interface ParsedSearch {
  /** Operator terms first, in the order typed, then the `search` words. */
  terms: SearchTerm[];
  /** The query written back in one canonical form (the narrow's key). */
  canonical: string;
  /** Problems that stop the query from being sent (a bad `near:` id, say). */
  errors: string[];
}

/** Operators the service knows, by every name it accepts → the modern name. */
const OPERATORS: Record<string, string> = {
  channel: "channel",
  stream: "channel",
  channels: "channels",
  streams: "channels",
  topic: "topic",
  subject: "topic",
  sender: "sender",
  from: "sender",
  dm: "dm",
  "pm-with": "dm",
  "dm-including": "dm-including",
  "group-pm-with": "dm-including",
  is: "is",
  has: "has",
  near: "near",
  id: "id",
  with: "with",
  search: "search",
};

export const HAS_OPERANDS = ["link", "attachment", "image", "reaction"];

/** Splits on whitespace, keeping "quoted phrases" (and `op:"quoted operand"`) whole. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const re = /-?(?:[\w-]+:)?"[^"]*"?|\S+/gu;
  for (const m of text.matchAll(re)) out.push(m[0]);
  return out;
}

function unquote(s: string): string {
  return s.startsWith('"') ? s.replace(/^"/, "").replace(/"$/, "") : s;
}

function quoteIfNeeded(s: string): string {
  return /\s/.test(s) || s === "" ? `"${s}"` : s;
}

/**
 * Parses a query. `selfEmail` resolves `sender:me` (and `dm:me`), as the
 * web app does; without it `me` is sent as typed.
 */
export function parseSearchQuery(text: string, opts: { selfEmail?: string } = {}): ParsedSearch {
  const terms: SearchTerm[] = [];
  const words: string[] = [];
  const negatedWords: string[] = [];
  const errors: string[] = [];
  const canonical: string[] = [];
  for (const token of tokenize(text.trim())) {
    const m = /^(-?)([\w-]+):(.*)$/su.exec(token);
    const op = m ? OPERATORS[m[2]!.toLowerCase()] : undefined;
    if (!m || !op) {
      // A plain word or phrase ("http://…" too: "http" is not an operator).
      if (token.startsWith("-") && token.length > 1) {
        negatedWords.push(token.slice(1));
        canonical.push(token);
      } else if (token !== "-") {
        const closed = token.startsWith('"') && (token.length === 1 || !token.endsWith('"')) ? `${token}"` : token;
        if (closed !== '""') {
          words.push(closed);
          canonical.push(closed);
        }
      }
      continue;
    }
    const negated = m[1] === "-";
    let operand = unquote(m[3]!).trim();
    if (operand === "") {
      errors.push(`${m[2]}: needs a value`);
      continue;
    }
    if (op === "search") {
      (negated ? negatedWords : words).push(quoteIfNeeded(operand));
      canonical.push(`${negated ? "-" : ""}${quoteIfNeeded(operand)}`);
      continue;
    }
    if ((op === "near" || op === "id" || op === "with") && !/^\d+$/.test(operand)) {
      errors.push(`${op}: takes a message id (a number), not "${operand}"`);
      continue;
    }
    if (op === "is") operand = operand.toLowerCase();
    if (op === "has") {
      operand = operand.toLowerCase().replace(/s$/, ""); // has:links → link
      if (!HAS_OPERANDS.includes(operand)) errors.push(`has: one of ${HAS_OPERANDS.join(", ")}`);
    }
    if ((op === "sender" || op === "dm" || op === "dm-including") && opts.selfEmail) {
      operand = operand
        .split(",")
        .map((e) => (e.trim().toLowerCase() === "me" ? opts.selfEmail! : e.trim()))
        .filter((e) => e !== "")
        .join(",");
    }
    terms.push(negated ? { operator: op, operand, negated } : { operator: op, operand });
    canonical.push(`${negated ? "-" : ""}${op}:${quoteIfNeeded(operand)}`);
  }
  if (words.length) terms.push({ operator: "search", operand: words.join(" ") });
  for (const w of negatedWords) terms.push({ operator: "search", operand: w, negated: true });
  if (terms.length === 0 && errors.length === 0) errors.push("Type something to search for");
  return { terms, canonical: canonical.join(" "), errors };
}

/** The terms as narrow terms (modern operator names; message ids as numbers). */
export function toNarrowTerms(terms: readonly SearchTerm[]): NarrowTerm[] {
  return terms.map((t) => {
    const numeric = (t.operator === "near" || t.operator === "id" || t.operator === "with") && /^\d+$/.test(t.operand);
    const operand: string | number = numeric ? Number(t.operand) : t.operand;
    return t.negated ? { operator: t.operator, operand, negated: true } : { operator: t.operator, operand };
  });
}

/** The words of the full-text part (phrases split), lower-cased: what to highlight when the server gave no highlights. */
export function searchWords(terms: readonly SearchTerm[]): string[] {
  const out = new Set<string>();
  for (const t of terms) {
    if (t.operator !== "search" || t.negated) continue;
    for (const w of t.operand.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) out.add(w);
  }
  return [...out];
}
