// Narrows on the wire: `{operator, operand, negated}` objects or legacy
// `[operator, operand]` pairs. Parsing normalises operator aliases and checks
// each operand's type for its operator; what the terms mean is narrow-filter's job.

import { badNarrow, badRequest } from "./errors.js";

export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated: boolean;
}

/** Legacy and alternative operator names → the canonical one. */
const OPERATOR_ALIASES: Record<string, string> = {
  stream: "channel",
  streams: "channels",
  subject: "topic",
  "pm-with": "dm",
};

/** Operators whose operand is one id or a string (name, email, id as text). */
const ID_OR_STRING = new Set(["channel", "id", "sender", "group-pm-with", "dm-including", "with", "near"]);
/** Operators whose operand is a list of ids or a string (comma-separated emails). */
const IDS_OR_STRING = new Set(["dm"]);
const STRING_ONLY = new Set(["channels", "topic", "is", "has", "search", "in"]);

export const KNOWN_OPERATORS = new Set([...ID_OR_STRING, ...IDS_OR_STRING, ...STRING_ONLY]);

/** Operators for which `negated: true` has no meaning; the server refuses them. */
export const NOT_NEGATABLE = new Set(["near", "with"]);

export function canonicalOperator(operator: string): string {
  return OPERATOR_ALIASES[operator] ?? operator;
}

function checkOperand(op: string, operand: unknown, name: string): NarrowTerm["operand"] {
  const isInt = (x: unknown) => typeof x === "number" && Number.isSafeInteger(x);
  if (typeof operand === "string") {
    if (op === "search" && operand.trim() === "") throw badRequest(`${name}: operand cannot be blank.`);
    return operand;
  }
  if (ID_OR_STRING.has(op) && isInt(operand)) return operand as number;
  if (IDS_OR_STRING.has(op) && Array.isArray(operand) && operand.every(isInt)) return operand as number[];
  if (IDS_OR_STRING.has(op) && isInt(operand)) return [operand as number];
  const expected = ID_OR_STRING.has(op)
    ? "a string or an integer"
    : IDS_OR_STRING.has(op)
      ? "a string or a list of integers"
      : "a string";
  throw badRequest(`${name}: operand of '${op}' is not ${expected}`);
}

/**
 * Parses a narrow parameter value (already JSON-decoded). Unknown operators
 * are BAD_NARROW; malformed elements and operands are BAD_REQUEST.
 */
export function parseNarrow(raw: unknown, name = "narrow"): NarrowTerm[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw badRequest(`${name} is not a list`);
  return raw.map((item, i): NarrowTerm => {
    const where = `${name}[${i}]`;
    let operator: unknown;
    let operand: unknown;
    let negated: unknown = false;
    if (Array.isArray(item)) {
      if (item.length !== 2) throw badRequest(`${where} is not a pair of operator and operand`);
      [operator, operand] = item as unknown[];
    } else if (item && typeof item === "object") {
      const obj = item as Record<string, unknown>;
      if (obj["operator"] === undefined || obj["operator"] === null) throw badRequest(`${where}: operator is missing`);
      if (obj["operand"] === undefined || obj["operand"] === null) throw badRequest(`${where}: operand is missing`);
      ({ operator, operand } = obj);
      negated = obj["negated"] ?? false;
      if (typeof negated !== "boolean") throw badRequest(`${where}: negated is not a boolean`);
    } else {
      throw badRequest(`${where} is not an object or a pair`);
    }
    if (typeof operator !== "string") throw badRequest(`${where}: operator is not a string`);
    const op = canonicalOperator(operator);
    if (!KNOWN_OPERATORS.has(op)) throw badNarrow(`unknown operator ${operator}`);
    if (negated === true && NOT_NEGATABLE.has(op)) throw badNarrow(`the '${operator}' operator cannot be negated`);
    return { operator: op, operand: checkOperand(op, operand, where), negated: negated === true };
  });
}

/** Text of a string-or-id operand. */
export function operandText(term: NarrowTerm): string {
  if (Array.isArray(term.operand)) throw badNarrow(`bad operand for ${term.operator}`);
  return String(term.operand);
}
