/**
 * Palette entries beyond one channel: channel folders and user
 * deactivation (organization administrators), user groups, your status and
 * away, marking everything read, looking a user up by email, and
 * registering a push token.
 */
import { emojiByName, searchEmoji } from "../render/emoji.js";
import { MAX_STATUS_TEXT_LENGTH } from "../sync/actions/account.js";
import type { ActionContext } from "./app-context.js";
import { isOrgAdmin, userOptions, withinLimit, type PaletteCommand } from "./palette-commands-context.js";
import { openConfirm } from "./popups/Confirm.js";
import { openForm, type FormValues } from "./popups/Form.js";
import { openUserCard } from "./popups/UserCard.js";

function str(v: FormValues, name: string): string {
  const x = v[name];
  return typeof x === "string" ? x : "";
}

/** The service's code for a Unicode emoji: its code points in hex, joined by "-", without variation selectors. */
export function unicodeEmojiCode(emoji: string): string {
  return [...emoji]
    .map((ch) => ch.codePointAt(0)!)
    .filter((cp) => cp !== 0xfe0f)
    .map((cp) => cp.toString(16))
    .join("-");
}

function folderCommands(ctx: ActionContext): PaletteCommand[] {
  const { store } = ctx;
  if (!isOrgAdmin(store)) return [];
  const account = ctx.account;
  const out: PaletteCommand[] = [
    {
      id: "folder.create",
      title: "Create a channel folder",
      detail: "administrators",
      run: (c) =>
        openForm(c, {
          title: "New channel folder",
          fields: [
            { kind: "text", name: "name", label: "Name", validate: withinLimit("A folder name", store.realm.maxFolderNameLength, true) },
            { kind: "text", name: "description", label: "Description", validate: withinLimit("The description", store.realm.maxFolderDescriptionLength) },
          ],
          onSubmit: (v) => c.attempt(() => account.actions.createChannelFolder({ name: str(v, "name").trim(), description: str(v, "description") }), `Folder ${str(v, "name").trim()} created`),
        }),
    },
  ];
  for (const f of store.channelsModel.foldersInOrder()) {
    out.push({
      id: `folder.edit.${f.id}`,
      title: `Rename or describe folder ${f.name}`,
      detail: "administrators",
      run: (c) =>
        openForm(c, {
          title: `Folder ${f.name}`,
          fields: [
            { kind: "text", name: "name", label: "Name", initial: f.name, validate: withinLimit("A folder name", store.realm.maxFolderNameLength, true) },
            { kind: "text", name: "description", label: "Description", initial: f.description, validate: withinLimit("The description", store.realm.maxFolderDescriptionLength) },
          ],
          onSubmit: (v) => {
            const p: { name?: string; description?: string } = {};
            if (str(v, "name").trim() !== f.name) p.name = str(v, "name").trim();
            if (str(v, "description") !== f.description) p.description = str(v, "description");
            if (Object.keys(p).length === 0) return c.notify("Nothing changed");
            c.attempt(() => account.actions.changeChannelFolder(f.id, p), `Folder ${p.name ?? f.name} changed`);
          },
        }),
    });
    out.push({
      id: `folder.archive.${f.id}`,
      title: `${f.is_archived ? "Unarchive" : "Archive"} folder ${f.name}`,
      detail: "administrators",
      run: (c) =>
        openConfirm(c, {
          title: `${f.is_archived ? "Unarchive" : "Archive"} folder ${f.name}?`,
          lines: [f.is_archived ? "It shows in the sidebar again." : "Its channels stay; the folder no longer groups them."],
          action: f.is_archived ? "unarchive" : "archive",
          onConfirm: () => c.attempt(() => account.actions.changeChannelFolder(f.id, { is_archived: !f.is_archived }), `Folder ${f.name} ${f.is_archived ? "unarchived" : "archived"}`),
        }),
    });
  }
  return out;
}

/** A form that picks people needs the whole user list (it comes after the first screen): else says so. */
function peopleLoaded(c: ActionContext): boolean {
  if (c.store.people.complete) return true;
  c.notify("People are still loading; try again in a moment.");
  return false;
}

function deactivateCommand(ctx: ActionContext): PaletteCommand[] {
  const { store } = ctx;
  if (!isOrgAdmin(store)) return [];
  return [
    {
      id: "user.deactivate",
      title: "Deactivate a user",
      detail: "administrators",
      run: (c) =>
        peopleLoaded(c) &&
        openForm(c, {
          title: "Deactivate a user",
          fields: [
            { kind: "pick", name: "user", label: "User", options: userOptions(store, { bots: true }) },
            { kind: "toggle", name: "delete_profile", label: "Delete profile" },
            { kind: "toggle", name: "delete_public_channel_messages", label: "Delete public-channel messages" },
            { kind: "toggle", name: "delete_private_channel_messages", label: "Delete private-channel messages" },
            { kind: "toggle", name: "delete_direct_messages", label: "Delete direct messages" },
            { kind: "toggle", name: "notify", label: "Email them about it" },
            { kind: "text", name: "comment", label: "Note in the email", hint: "optional" },
          ],
          onSubmit: (v) => {
            const userId = Number(v["user"]);
            const name = store.userName(userId);
            const actions = {
              delete_profile: v["delete_profile"] === true,
              delete_public_channel_messages: v["delete_public_channel_messages"] === true,
              delete_private_channel_messages: v["delete_private_channel_messages"] === true,
              delete_direct_messages: v["delete_direct_messages"] === true,
            };
            const deleting = Object.entries(actions)
              .filter(([, on]) => on)
              .map(([k]) => k.replace(/^delete_/, "").replace(/_/g, " "));
            openConfirm(c, {
              title: `Deactivate ${name}?`,
              lines: [
                `${name} will be logged out and can no longer sign in; their bots are deactivated too.`,
                deleting.length ? `Also deleted: ${deleting.join(", ")}.` : "Their messages stay.",
                v["notify"] === true ? "They get an email about it." : "No email is sent.",
              ],
              action: "deactivate",
              danger: true,
              onConfirm: () =>
                c.attempt(
                  () =>
                    c.account.actions.deactivateUser(userId, {
                      actions,
                      deactivation_notification_comment: v["notify"] === true ? str(v, "comment") : null,
                    }),
                  `${name} deactivated`,
                ),
            });
          },
        }),
    },
  ];
}

/** The status emoji field's preview: the emoji its name stands for, else the names it could be the start of. */
export function emojiPreview(value: string): string | undefined {
  const name = value.trim().replace(/^:|:$/g, "");
  if (!name) return undefined;
  const emoji = emojiByName(name);
  if (emoji) return emoji;
  const could = searchEmoji(name, 3);
  return could.length ? could.map((m) => `${m.emoji} ${m.name}`).join("  ") + (could.length === 3 ? " …" : "") : "no emoji by that name";
}

function personalCommands(ctx: ActionContext): PaletteCommand[] {
  const { store } = ctx;
  const account = ctx.account;
  const status = store.people.statuses.get(store.selfId);
  const away = status?.away ?? false;
  return [
    {
      id: "status.set",
      title: "Set your status",
      detail: status?.text ? `now: ${status.text}` : undefined,
      run: (c) =>
        openForm(c, {
          title: "Your status",
          fields: [
            {
              kind: "text",
              name: "text",
              label: "Status",
              initial: status?.text ?? "",
              validate: (v) => ([...v.trim()].length > MAX_STATUS_TEXT_LENGTH ? `At most ${MAX_STATUS_TEXT_LENGTH} characters (this is ${[...v.trim()].length})` : undefined),
            },
            {
              kind: "text",
              name: "emoji",
              label: "Emoji",
              initial: status?.emojiName ?? "",
              hint: "a name like coffee, or empty",
              validate: (v) => (v.trim() === "" || emojiByName(v.trim()) ? undefined : `No emoji named "${v.trim()}"`),
              preview: emojiPreview,
            },
          ],
          onSubmit: (v) => {
            const name = str(v, "emoji").trim().replace(/^:|:$/g, "");
            const emoji = name ? emojiByName(name) : undefined;
            c.attempt(
              () =>
                account.actions.setStatus({
                  status_text: str(v, "text").trim(),
                  emoji_name: name,
                  ...(emoji ? { emoji_code: unicodeEmojiCode(emoji), reaction_type: "unicode_emoji" as const } : {}),
                }),
              str(v, "text").trim() ? `Status: ${str(v, "text").trim()}` : "Status cleared",
            );
          },
        }),
    },
    {
      id: "status.clear",
      title: "Clear your status",
      run: (c) => c.attempt(() => account.actions.setStatus({ status_text: "", emoji_name: "" }), "Status cleared"),
    },
    {
      id: "status.away",
      title: away ? "Set yourself available (not away)" : "Set yourself away",
      run: (c) => c.attempt(() => account.actions.setStatus({ away: !away }), away ? "You are shown as available" : "You are shown as away"),
    },
    {
      id: "read.all",
      title: "Mark all messages as read",
      run: (c) =>
        openConfirm(c, {
          title: "Mark all messages as read?",
          lines: ["Every unread message in every channel and conversation."],
          action: "mark all as read",
          onConfirm: () => c.attempt(() => account.actions.markAllRead(), "All messages marked as read"),
        }),
    },
    {
      id: "user.lookup",
      title: "Look up a user by email",
      run: (c) =>
        openForm(c, {
          title: "Look up a user",
          fields: [{ kind: "text", name: "email", label: "Email", validate: (v) => (v.includes("@") ? undefined : "An email address") }],
          onSubmit: (v) =>
            c.attempt(async () => {
              const r = await account.actions.lookUpUserByEmail(str(v, "email").trim());
              if (r.ok) openUserCard(c, r.value.user_id);
              return r;
            }),
        }),
    },
    {
      id: "group.create",
      title: "Create a user group",
      run: (c) =>
        peopleLoaded(c) &&
        openForm(c, {
          title: "New user group",
          fields: [
            { kind: "text", name: "name", label: "Name", validate: (v) => (v.trim() ? undefined : "A group needs a name") },
            { kind: "text", name: "description", label: "Description" },
            { kind: "pick", name: "members", label: "Members", options: userOptions(store, { includeSelf: true, bots: true }), multi: true, initial: String(store.selfId) },
          ],
          onSubmit: (v) => {
            const members = (Array.isArray(v["members"]) ? v["members"] : []).map(Number);
            c.attempt(
              () => account.actions.createUserGroup({ name: str(v, "name").trim(), description: str(v, "description"), members }),
              `Group ${str(v, "name").trim()} created with ${members.length} member${members.length === 1 ? "" : "s"}`,
            );
          },
        }),
    },
    {
      id: "push.register",
      title: "Register a push notification token (APNs)",
      run: (c) =>
        openForm(c, {
          title: "Register an APNs device token",
          fields: [
            { kind: "text", name: "token", label: "Device token", validate: (v) => (v.trim() ? undefined : "The token from the device") },
            { kind: "text", name: "appid", label: "App ID", hint: "e.g. org.example.app", validate: (v) => (v.trim() ? undefined : "The app's bundle ID") },
          ],
          onSubmit: (v) => c.attempt(() => account.actions.registerPushToken({ token: str(v, "token").trim(), appid: str(v, "appid").trim() }), "Push token registered"),
        }),
    },
  ];
}

export function orgCommands(ctx: ActionContext): PaletteCommand[] {
  return [...personalCommands(ctx), ...folderCommands(ctx), ...deactivateCommand(ctx)];
}
