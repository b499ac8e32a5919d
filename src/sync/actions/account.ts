/**
 * The reader's own account and the organization's people: status and away,
 * user groups, deactivating a user (administrators), push tokens.
 */
import { addApnsDeviceToken } from "../../api/routes/push.js";
import { MAX_STATUS_TEXT_LENGTH, updateStatus, type UpdateStatusParams } from "../../api/routes/status.js";
import { createUserGroup as createGroupRoute, type CreateUserGroupParams } from "../../api/routes/user-groups.js";
import { deactivateUser as deactivateRoute, type DeactivateUserParams } from "../../api/routes/users.js";
import { command, type ActionResult, type ActionSession } from "./result.js";

export { MAX_STATUS_TEXT_LENGTH };

export function setStatus(session: ActionSession, p: UpdateStatusParams): Promise<ActionResult> {
  return command(session, (c) => updateStatus(c, p));
}

export function createUserGroup(session: ActionSession, p: CreateUserGroupParams): Promise<ActionResult> {
  return command(session, (c) => createGroupRoute(c, p));
}

export function deactivateUser(session: ActionSession, userId: number, p: DeactivateUserParams): Promise<ActionResult> {
  return command(session, (c) => deactivateRoute(c, userId, p));
}

export function registerPushToken(session: ActionSession, p: { token: string; appid: string }): Promise<ActionResult> {
  return command(session, (c) => addApnsDeviceToken(c, p));
}
