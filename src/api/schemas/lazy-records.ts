/**
 * A large array of records from a response, each checked against its schema the first time
 * it is used rather than all at once. The register of a big organization carries tens of
 * thousands of users, and checking them all sat on the start-up path while the first screen
 * needs a handful; the rest are checked a batch at a time once the screen is up
 * (`checkSome`), so every record is still checked before long, and always before use.
 *
 * A record that fails its check is left out, and the problem is kept (`problems`) for the
 * client to report; one bad user no longer stops the client from starting.
 */
import type * as z from "zod";

export class LazyRecords<T> {
  private readonly pending = new Map<number, unknown>();
  private readonly checked = new Map<number, T>();
  /** What was wrong with the records left out (each names the record's id). */
  readonly problems: string[] = [];

  constructor(
    raw: readonly unknown[],
    private readonly schema: z.ZodType<T>,
    private readonly what: string,
    idOf: (raw: unknown) => unknown,
    /** The form a checked record is kept in, given the record it was checked from. */
    private readonly keep: (checked: T, raw: unknown) => T = (checked) => checked,
  ) {
    raw.forEach((r, i) => {
      const id = idOf(r);
      if (typeof id === "number" && Number.isInteger(id)) this.pending.set(id, r);
      else this.problems.push(`${what} at position ${i}: no integer id`);
    });
  }

  /** The record with this id, checked (undefined when there is none, or it failed its check). */
  get(id: number): T | undefined {
    const done = this.checked.get(id);
    if (done !== undefined || !this.pending.has(id)) return done;
    return this.check(id);
  }

  /** As JSON: the plain list, the records checked so far in the form kept, the others as they came. */
  toJSON(): unknown[] {
    return [...this.checked.values(), ...this.pending.values()];
  }

  /** Checks up to `count` records not checked yet; returns how many remain. */
  checkSome(count: number): number {
    for (const id of this.pending.keys()) {
      if (count-- <= 0) break;
      this.check(id);
    }
    return this.pending.size;
  }

  /** Every valid record, all checked, by id. */
  all(): [number, T][] {
    this.checkSome(Number.POSITIVE_INFINITY);
    return [...this.checked];
  }

  private check(id: number): T | undefined {
    const raw = this.pending.get(id);
    this.pending.delete(id);
    const r = this.schema.safeParse(raw);
    if (r.success) {
      const kept = this.keep(r.data, raw);
      this.checked.set(id, kept);
      return kept;
    }
    const issue = r.error.issues[0];
    this.problems.push(`${this.what} ${id}: ${issue ? `${issue.path.join(".") || "(record)"}: ${issue.message}` : "invalid"}`);
    return undefined;
  }
}
