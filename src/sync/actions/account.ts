/**
 * The reader's own account and the organization's people: status and away,
 * when viewing marks messages read, user groups, deactivating a user
 * (administrators), push tokens.
 */
import { ignoredParameters } from "../../api/ignored-parameters.js";
import { addApnsDeviceToken } from "../../api/routes/push.js";
import { updateSettings } from "../../api/routes/settings.js";
import { MAX_STATUS_TEXT_LENGTH, updateStatus, type UpdateStatusParams } from "../../api/routes/status.js";
import { createUserGroup as createGroupRoute, type CreateUserGroupParams } from "../../api/routes/user-groups.js";
import { deactivateUser as deactivateRoute, type DeactivateUserParams } from "../../api/routes/users.js";
import { MARK_READ_ON_SCROLL, type MarkReadPolicy } from "../../model/read-policy.js";
import { command, perform, type ActionResult, type ActionSession } from "./result.js";

export { MAX_STATUS_TEXT_LENGTH };

export function setStatus(session: ActionSession, p: UpdateStatusParams): Promise<ActionResult> {
  return command(session, (c) => updateStatus(c, p));
}

/** When viewing messages marks them read; the store follows through the server's user_settings event. */
export function setMarkReadPolicy(session: ActionSession, policy: MarkReadPolicy): Promise<ActionResult> {
  return perform(async () => {
    const res = await updateSettings(session.machine.client, { web_mark_read_on_scroll_policy: MARK_READ_ON_SCROLL[policy] });
    // Servers before feature level 175 have no such setting, and say so.
    if (ignoredParameters(res).includes("web_mark_read_on_scroll_policy")) throw new Error("This server has no setting for marking messages read (it came with feature level 175)");
  });
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
