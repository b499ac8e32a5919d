/**
 * Palette entries about one channel: its settings (administrators), the
 * user's subscription to it, the open topic's visibility, marking as read.
 */
import type { GroupSettingValue } from "../api/schemas/common.js";
import {
  CHANNEL_GROUP_SETTINGS,
  VisibilityPolicy,
  type ChannelGroupSetting,
  type SubscriptionSetting,
  type TopicsPolicy,
  type UpdateChannelParams,
} from "../sync/actions/channels.js";
import type { ActionContext } from "./app-context.js";
import {
  canAdministerChannel,
  channelLabel,
  channelOptions,
  channelRecord,
  describeGroupSetting,
  groupOptions,
  paletteTarget,
  topicLabel,
  withChannel,
  withinLimit,
  type PaletteCommand,
} from "./palette-commands-context.js";
import { openConfirm } from "./popups/Confirm.js";
import { openForm, type FormValues } from "./popups/Form.js";

const PERMISSION_LABELS: Record<ChannelGroupSetting, string> = {
  can_add_subscribers_group: "who can add subscribers",
  can_remove_subscribers_group: "who can remove subscribers",
  can_administer_channel_group: "who administers the channel",
  can_delete_any_message_group: "who can delete any message",
  can_delete_own_message_group: "who can delete their own messages",
  can_move_messages_out_of_channel_group: "who can move messages out",
  can_move_messages_within_channel_group: "who can move messages within",
  can_send_message_group: "who can post",
  can_subscribe_group: "who can subscribe",
  can_resolve_topics_group: "who can resolve topics",
  can_create_topic_group: "who can start topics",
};

const TOPICS_POLICIES: Array<{ value: TopicsPolicy; label: string }> = [
  { value: "inherit", label: "the organization's default" },
  { value: "allow_empty_topic", label: "allow messages without a topic" },
  { value: "disable_empty_topic", label: "require a topic" },
  { value: "empty_topic_only", label: "only messages without a topic" },
];

function change(ctx: ActionContext, channelId: number, p: UpdateChannelParams, done: string): void {
  ctx.attempt(() => ctx.account.actions.changeChannel(channelId, p), done);
}

/** Channel settings: each entry a small form for the target channel. */
function settingsCommands(ctx: ActionContext, target: number | undefined): PaletteCommand[] {
  const { store } = ctx;
  const admin = (id: number) => canAdministerChannel(store, id);
  if (target !== undefined && !admin(target)) return [];
  if (target === undefined && channelOptions(store, admin).length === 0) return [];
  const detail = target !== undefined ? channelLabel(store, target) : "choose a channel";
  const entry = (id: string, title: string, form: (channelId: number) => void): PaletteCommand => ({
    id,
    title,
    detail,
    run: (c) => withChannel(c, title, admin, form),
  });
  const out: PaletteCommand[] = [
    entry("channel.rename", "Rename channel", (id) =>
      openForm(ctx, {
        title: `Rename ${channelLabel(store, id)}`,
        fields: [{ kind: "text", name: "name", label: "New name", initial: channelRecord(store, id)?.name ?? "", validate: withinLimit("A channel name", store.realm.maxChannelNameLength, true) }],
        onSubmit: (v) => change(ctx, id, { new_name: str(v, "name").trim() }, `Renamed ${channelLabel(store, id)} to #${str(v, "name").trim()}`),
      }),
    ),
    entry("channel.description", "Change channel description", (id) =>
      openForm(ctx, {
        title: `Description of ${channelLabel(store, id)}`,
        fields: [{ kind: "text", name: "description", label: "Description", initial: channelRecord(store, id)?.description ?? "", validate: withinLimit("The description", store.realm.maxChannelDescriptionLength) }],
        onSubmit: (v) => change(ctx, id, { description: str(v, "description") }, `Description of ${channelLabel(store, id)} changed`),
      }),
    ),
    entry("channel.privacy", "Change channel privacy (private, public, web-public)", (id) => {
      const c = channelRecord(store, id);
      const now = c?.is_web_public ? "web-public" : c?.invite_only ? "private" : "public";
      openForm(ctx, {
        title: `Privacy of ${channelLabel(store, id)}`,
        subtitle: `Now: ${now}`,
        fields: [
          {
            kind: "choice",
            name: "access",
            label: "Who can see it",
            initial: now,
            options: [
              { value: "public", label: "public: anyone in the organization" },
              { value: "private", label: "private: subscribers only" },
              { value: "web-public", label: "web-public: anyone on the internet" },
            ],
          },
          { kind: "toggle", name: "history", label: "History for new subscribers", initial: c?.history_public_to_subscribers ?? true },
        ],
        onSubmit: (v) => {
          const access = str(v, "access");
          const p: UpdateChannelParams =
            access === "web-public" ? { is_web_public: true, is_private: false } : access === "private" ? { is_private: true, is_web_public: false, history_public_to_subscribers: v["history"] === true } : { is_private: false, is_web_public: false };
          change(ctx, id, p, `${channelLabel(store, id)} is now ${access}`);
        },
      });
    }),
    entry("channel.default", "Set or unset as a default channel for new users", (id) =>
      openForm(ctx, {
        title: `Default channel: ${channelLabel(store, id)}`,
        fields: [{ kind: "choice", name: "default", label: "New users join it", options: [{ value: "yes", label: "yes" }, { value: "no", label: "no" }] }],
        onSubmit: (v) => change(ctx, id, { is_default_stream: v["default"] === "yes" }, `${channelLabel(store, id)}: ${v["default"] === "yes" ? "now a default channel" : "no longer a default channel"}`),
      }),
    ),
    entry("channel.retention", "Set channel message retention", (id) => {
      const days = channelRecord(store, id)?.message_retention_days;
      openForm(ctx, {
        title: `Message retention of ${channelLabel(store, id)}`,
        subtitle: `Now: ${days === null || days === undefined ? "the organization's default" : days === -1 ? "unlimited" : `${days} days`}`,
        fields: [{ kind: "text", name: "days", label: "Keep messages", hint: "days, unlimited, or realm_default", validate: checkRetention }],
        onSubmit: (v) => {
          const raw = str(v, "days").trim().toLowerCase();
          const value = raw === "unlimited" || raw === "realm_default" ? raw : Number(raw);
          change(ctx, id, { message_retention_days: value }, `Retention of ${channelLabel(store, id)}: ${raw}`);
        },
      });
    }),
    entry("channel.folder", "Move channel to a folder", (id) => {
      const folders = store.channelsModel.foldersInOrder().filter((f) => !f.is_archived);
      const current = channelRecord(store, id)?.folder_id;
      openForm(ctx, {
        title: `Folder of ${channelLabel(store, id)}`,
        fields: [
          {
            kind: "pick",
            name: "folder",
            label: "Folder",
            initial: current === null || current === undefined ? "none" : String(current),
            options: [{ value: "none", label: "(no folder)" }, ...folders.map((f) => ({ value: String(f.id), label: f.name }))],
          },
        ],
        onSubmit: (v) => {
          const f = str(v, "folder");
          change(ctx, id, { folder_id: f === "none" ? null : Number(f) }, `${channelLabel(store, id)} moved ${f === "none" ? "out of its folder" : `to ${store.folders.get(Number(f))?.name ?? "the folder"}`}`);
        },
      });
    }),
    entry("channel.topics", "Set channel topics policy", (id) =>
      openForm(ctx, {
        title: `Topics in ${channelLabel(store, id)}`,
        fields: [{ kind: "choice", name: "policy", label: "Topics", options: TOPICS_POLICIES, initial: String(channelRecord(store, id)?.topics_policy ?? "inherit") }],
        onSubmit: (v) => change(ctx, id, { topics_policy: str(v, "policy") as TopicsPolicy }, `Topics policy of ${channelLabel(store, id)} changed`),
      }),
    ),
  ];
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const title = `Channel permission: ${PERMISSION_LABELS[setting]}`;
    out.push(
      entry(`channel.perm.${setting}`, title, (id) => {
        const old = channelRecord(store, id)?.[setting] as GroupSettingValue | undefined;
        openForm(ctx, {
          title: `${channelLabel(store, id)}: ${PERMISSION_LABELS[setting]}`,
          subtitle: `Now: ${describeGroupSetting(store, old)}`,
          fields: [{ kind: "pick", name: "group", label: "Group", options: groupOptions(store), initial: typeof old === "number" ? String(old) : undefined }],
          onSubmit: (v) =>
            change(ctx, id, { [setting]: old === undefined ? { new: Number(v["group"]) } : { new: Number(v["group"]), old } }, `${channelLabel(store, id)}: ${PERMISSION_LABELS[setting]} changed`),
        });
      }),
    );
  }
  const record = target !== undefined ? channelRecord(store, target) : undefined;
  if (target !== undefined && record?.is_archived) {
    out.push({
      id: "channel.unarchive",
      title: "Unarchive channel",
      detail,
      run: (c) =>
        openConfirm(c, {
          title: `Unarchive ${channelLabel(store, target)}?`,
          lines: ["Its messages become writable again and it shows among the channels."],
          action: "unarchive",
          onConfirm: () => change(c, target, { is_archived: false }, `${channelLabel(store, target)} unarchived`),
        }),
    });
  }
  return out;
}

function checkRetention(v: string): string | undefined {
  const s = v.trim().toLowerCase();
  if (s === "unlimited" || s === "realm_default" || (/^\d+$/.test(s) && Number(s) > 0)) return undefined;
  return "A number of days, unlimited, or realm_default";
}

const NOTIFICATION_SETTINGS = [
  ["desktop_notifications", "Desktop notifications"],
  ["audible_notifications", "Audible notifications"],
  ["push_notifications", "Mobile notifications"],
  ["email_notifications", "Email notifications"],
  ["wildcard_mentions_notify", "Notify on @all mentions"],
] as const;

const SUBSCRIPTION_ENTRIES = [
  ["sub.mute", "Mute or unmute a channel"],
  ["sub.pin", "Pin or unpin a channel"],
  ["sub.color", "Change channel colour"],
  ["sub.notifications", "Channel notification settings"],
  ["read.channel", "Mark channel as read"],
] as const;

/** The user's own settings for a subscribed channel; with none open or selected, the same for a channel chosen first. */
function subscriptionCommands(ctx: ActionContext, target: number | undefined): PaletteCommand[] {
  if (target !== undefined) return subscriptionCommandsFor(ctx, target);
  const subscribed = (id: number) => ctx.store.channels.has(id);
  if (channelOptions(ctx.store, subscribed).length === 0) return [];
  return SUBSCRIPTION_ENTRIES.map(([id, title]) => ({
    id,
    title,
    detail: "choose a channel",
    run: (c: ActionContext) => withChannel(c, title, subscribed, (channelId) => subscriptionCommandsFor(c, channelId).find((x) => x.id === id)?.run(c)),
  }));
}

function subscriptionCommandsFor(ctx: ActionContext, target: number): PaletteCommand[] {
  const { store } = ctx;
  const sub = store.channels.get(target);
  if (!sub) return [];
  const label = channelLabel(store, target);
  const set = (settings: SubscriptionSetting[], done: string) => ctx.attempt(() => ctx.account.actions.changeSubscriptions(settings), done);
  const muted = store.isChannelMuted(target);
  return [
    {
      id: "sub.mute",
      title: muted ? "Unmute channel" : "Mute channel",
      detail: label,
      run: () => set([{ stream_id: target, property: "is_muted", value: !muted }], `${label} ${muted ? "unmuted" : "muted"}`),
    },
    {
      id: "sub.pin",
      title: sub.pin_to_top ? "Unpin channel" : "Pin channel to the top",
      detail: label,
      run: () => set([{ stream_id: target, property: "pin_to_top", value: !sub.pin_to_top }], `${label} ${sub.pin_to_top ? "unpinned" : "pinned"}`),
    },
    {
      id: "sub.color",
      title: "Change channel colour",
      detail: label,
      run: (c) =>
        openForm(c, {
          title: `Colour of ${label}`,
          fields: [{ kind: "text", name: "color", label: "Colour", initial: sub.color, hint: "#rrggbb", validate: (v) => (/^#[0-9a-f]{6}$/i.test(v.trim()) ? undefined : "A colour like #3a7bd5") }],
          onSubmit: (v) => set([{ stream_id: target, property: "color", value: str(v, "color").trim().toLowerCase() }], `Colour of ${label} changed`),
        }),
    },
    {
      id: "sub.notifications",
      title: "Channel notification settings",
      detail: label,
      run: (c) => {
        const initial = Object.fromEntries(NOTIFICATION_SETTINGS.map(([k]) => [k, sub[k] ?? false]));
        openForm(c, {
          title: `Notifications for ${label}`,
          fields: NOTIFICATION_SETTINGS.map(([k, l]) => ({ kind: "toggle" as const, name: k, label: l, initial: initial[k] as boolean })),
          onSubmit: (v: FormValues) => {
            const changed: SubscriptionSetting[] = NOTIFICATION_SETTINGS.filter(([k]) => v[k] !== initial[k]).map(([k]) => ({ stream_id: target, property: k, value: v[k] === true }));
            if (changed.length) set(changed, `Notifications for ${label} changed`);
            else c.notify("Nothing changed");
          },
        });
      },
    },
    {
      id: "read.channel",
      title: "Mark channel as read",
      detail: label,
      run: () => ctx.attempt(() => ctx.account.actions.markChannelRead(target), `${label} marked as read`),
    },
  ];
}

const POLICY_ENTRIES: Array<{ policy: VisibilityPolicy; title: string; done: string }> = [
  { policy: VisibilityPolicy.Muted, title: "Mute topic", done: "muted" },
  { policy: VisibilityPolicy.Unmuted, title: "Unmute topic (in a muted channel)", done: "unmuted" },
  { policy: VisibilityPolicy.Followed, title: "Follow topic", done: "followed" },
  { policy: VisibilityPolicy.None, title: "Reset topic visibility (no mute or follow)", done: "back to the channel's default" },
];

function topicCommands(ctx: ActionContext, channelId: number | undefined, topic: string | undefined): PaletteCommand[] {
  const { store } = ctx;
  if (channelId === undefined || topic === undefined) return [];
  const label = topicLabel(store, channelId, topic);
  const current = store.topicPolicy(channelId, topic);
  const out: PaletteCommand[] = POLICY_ENTRIES.filter((e) => e.policy !== current && (e.policy !== VisibilityPolicy.Unmuted || store.isChannelMuted(channelId))).map((e) => ({
    id: `topic.${e.policy}`,
    title: e.title,
    detail: label,
    run: (c: ActionContext) =>
      c.attempt(() => c.account.actions.setTopicVisibility(channelId, topic, e.policy), `${label}: ${e.done}`),
  }));
  out.push({
    id: "read.topic",
    title: "Mark topic as read",
    detail: label,
    run: (c) => c.attempt(() => c.account.actions.markTopicRead(channelId, topic), `${label} marked as read`),
  });
  return out;
}

export function channelCommands(ctx: ActionContext): PaletteCommand[] {
  const t = paletteTarget(ctx);
  return [...topicCommands(ctx, t.channelId, t.topic), ...subscriptionCommands(ctx, t.channelId), ...settingsCommands(ctx, t.channelId)];
}

function str(v: FormValues, name: string): string {
  const x = v[name];
  return typeof x === "string" ? x : "";
}
