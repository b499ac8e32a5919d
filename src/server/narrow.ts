// Narrows: the public entry point. Parsing lives in narrow-parse.ts, the
// message predicate in narrow-filter.ts and full-text search in
// narrow-search.ts; this module re-exports them and adds the checks for
// event-queue narrows.

import { badRequest } from "./errors.js";
import type { NarrowTerm } from "./narrow-parse.js";

export { compileNarrow, canReadChannelHistory, resolveChannelOperand, RESOLVED_TOPIC_PREFIX, type CompiledNarrow } from "./narrow-filter.js";
export { parseNarrow, type NarrowTerm } from "./narrow-parse.js";
export { highlightHtml, parseSearch, type SearchQuery } from "./narrow-search.js";

/** Operators an event queue's narrow may use: those decidable from one new message. */
const QUEUE_OPERATORS = new Set(["channel", "channels", "topic", "sender", "is", "dm", "dm-including", "group-pm-with", "has", "search", "id"]);

/** Validates a register-time narrow (a filter on message events). */
export function checkQueueNarrow(terms: NarrowTerm[]): void {
  for (const term of terms) {
    if (!QUEUE_OPERATORS.has(term.operator)) throw badRequest(`Operator ${term.operator} not supported.`);
  }
}
