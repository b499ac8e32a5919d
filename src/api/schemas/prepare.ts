/**
 * The schemas a start checks its answers with, made ahead of the answers. Each schema is made at
 * its first use (a `z.lazy`), so that a start from the cache draws its first frame without making
 * any; but the register's answer, the first poll's and the cached narrows' refetch then wait for
 * theirs to be made (~20 ms) when they come. `prepareStartSchemas` makes them at once: the client
 * calls it after its first frame, while the register is still under way.
 */
import * as z from "zod";
import { channelSchema, messageSchema, userSchema } from "./common.js";
import { eventsAnswerSchema, eventsResponseSchema } from "./events.js";
import { registerResponseSchema } from "./register.js";
import { getMessagesResponseSchema } from "./responses.js";
import { allUsersResponseSchema, getOwnUserResponseSchema } from "./responses-users.js";
import { spectatorRegisterSchema } from "./spectator.js";

/**
 * Makes `roots` and every schema they are made of: each lazy one's definition, and what a
 * definition holds (fields, elements, options, the parts of a pipe). Returns how many schemas it
 * went through. A schema reached twice is gone through once.
 */
export function prepareSchemas(roots: readonly z.ZodType[]): number {
  const seen = new Set<object>();
  const pending: unknown[] = [...roots];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value instanceof z.ZodType) {
      if (seen.has(value)) continue;
      seen.add(value);
      if (value instanceof z.ZodLazy) pending.push(value._zod.innerType);
      for (const part of Object.values(value._zod.def)) pending.push(part);
    } else if (Array.isArray(value)) {
      pending.push(...value);
    } else if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype && !seen.has(value)) {
      // A plain object in a definition is a shape (field name → schema), or a value, which holds none.
      seen.add(value);
      pending.push(...Object.values(value));
    }
  }
  return seen.size;
}

/** The schemas of what a start reads after its register (the user's own record, the user list, the events, the narrows' refetch), made now. */
export function prepareStartSchemas(): number {
  return prepareSchemas([
    registerResponseSchema,
    spectatorRegisterSchema,
    getOwnUserResponseSchema,
    allUsersResponseSchema,
    eventsResponseSchema,
    eventsAnswerSchema,
    getMessagesResponseSchema,
    userSchema,
    channelSchema,
    messageSchema,
  ]);
}
