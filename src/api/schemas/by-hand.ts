/**
 * Fields of the register checked by hand where they are long and simple: on a cold start the
 * schema library's first checks run slowly, and a big organization's register spent most of its
 * check on a few such fields. A hand check takes the common shape only, and gives what the
 * schema would give; anything else goes through the schema, which reads what only its leniency
 * takes (a null where a field may be absent) or says where the field is wrong.
 */
import * as z from "zod";
import { isIdList } from "./id-list.js";

/** A field checked by `hand`, which throws on anything it does not take, else by `schema`. */
export function byHandOr<T>(hand: (raw: unknown) => T, schema: z.ZodType<T>) {
  return z.unknown().transform((raw, ctx): T => {
    try {
      return hand(raw);
    } catch {
      // the schema's answer, below
    }
    const checked = schema.safeParse(raw);
    if (checked.success) return checked.data;
    for (const issue of checked.error.issues) ctx.addIssue({ ...issue, code: "custom" });
    return z.NEVER;
  });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The register's recent direct-message conversations as their schema reads them (each kept as it came). */
export function recentDmsByHand(raw: unknown): Array<{ max_message_id: number; user_ids: number[] }> {
  if (!Array.isArray(raw)) throw new TypeError("not a list");
  for (const r of raw) {
    if (!isRecord(r) || !Number.isSafeInteger(r.max_message_id) || !isIdList(r.user_ids)) throw new TypeError("not a conversation");
  }
  return raw as Array<{ max_message_id: number; user_ids: number[] }>;
}
