/** Looking people up on the server (fresher than the register's copy). */
import { getUser, getUserByEmail } from "../../api/routes/users.js";
import type { User } from "../../api/schemas/common.js";
import { request, type ActionResult, type ActionSession } from "./result.js";

export async function lookUpUser(session: ActionSession, userId: number): Promise<ActionResult<User>> {
  const r = await request(session, (c) => getUser(c, userId));
  return r.ok ? { ok: true, value: r.value.user } : r;
}

export async function lookUpUserByEmail(session: ActionSession, email: string): Promise<ActionResult<User>> {
  const r = await request(session, (c) => getUserByEmail(c, email));
  return r.ok ? { ok: true, value: r.value.user } : r;
}
