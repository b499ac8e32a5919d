/**
 * A list of integer ids (users, messages, groups), checked by hand and kept as it came (not
 * copied). Such lists run to tens of thousands of ids on a big organization (its "everyone"
 * group's members, a user's starred messages), and the schema library's check of each element,
 * on a cold start, cost more than the rest of their records. A list with anything but safe
 * integers is refused as a whole.
 */
import * as z from "zod";

export function isIdList(v: unknown): v is number[] {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!Number.isSafeInteger(v[i])) return false;
  return true;
}

export const idList = () => z.custom<number[]>(isIdList, { error: "expected a list of integer ids" });
