/**
 * Records as a newer server may send them. Unknown fields pass through (a loose
 * object), and `null` in a field the client knows as optional reads as absent, so
 * the field's default applies: a newer release that starts sending `null` for
 * "not known" (a channel's creation date, a user's time zone, a group's
 * description) is read as an older one that left the field out. A required field
 * stays required: `null` there is still an error, named by its path.
 */
import * as z from "zod";

type Shape = Record<string, z.ZodType>;

/** The keys whose schema accepts absence but not null. */
function nullableAsAbsent(shape: Shape): string[] {
  return Object.keys(shape).filter((k) => {
    const s = shape[k] as z.ZodType;
    return s.safeParse(undefined).success && !s.safeParse(null).success;
  });
}

function withoutNulls(raw: unknown, keys: readonly string[]): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const r = raw as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const k of keys) {
    if (r[k] !== null) continue;
    copy ??= { ...r };
    delete copy[k];
  }
  return copy ?? raw;
}

/**
 * A loose object whose optional fields also take `null` (read as absent). Which fields those
 * are is found on the first parse, not when the schema is made: making the schemas is on the
 * start path, and trying every field of every schema there cost ~15 ms.
 */
export function tolerantObject<const S extends Shape>(shape: S) {
  let keys: string[] | undefined;
  return z.preprocess((raw) => withoutNulls(raw, (keys ??= nullableAsAbsent(shape))), z.looseObject(shape)).transform(withFastProperties);
}

/**
 * The record as an object of plain fields. Zod's parsed object keeps its fields in a hash table
 * (V8's dictionary mode): 800 bytes more for a message than a copy with fields in place, and
 * every read of a field a lookup. Thousands of messages and users are kept, and read on every
 * frame: each is copied once, here.
 */
function withFastProperties<T extends object>(record: T): T {
  return { ...record };
}
