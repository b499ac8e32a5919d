/**
 * Events about settings and per-user data: personal settings (modern and
 * legacy), the organization, custom emoji, linkifiers, alert words, drafts,
 * saved snippets, navigation views, server restarts.
 */
import * as z from "zod";
import { tolerantObject } from "./tolerant.js";
import { draftSchema, linkifierSchema, navigationViewSchema, realmEmojiSchema, savedSnippetSchema } from "./common.js";
import { id } from "./events-messages.js";

export const userSettingsUpdateEvent = z.lazy(() => tolerantObject({
  type: z.literal("user_settings"),
  id,
  op: z.literal("update"),
  property: z.string(),
  value: z.unknown(),
  /** With property default_language: the language's name. */
  language_name: z.string().optional(),
}));

/** Legacy (before feature level 439, clients without user_settings_object). */
export const updateDisplaySettingsEvent = z.lazy(() => tolerantObject({
  type: z.literal("update_display_settings"),
  id,
  user: z.string().optional(),
  setting_name: z.string(),
  setting: z.unknown(),
  language_name: z.string().optional(),
}));

/** Legacy (before feature level 439, clients without user_settings_object). */
export const updateGlobalNotificationsEvent = z.lazy(() => tolerantObject({
  type: z.literal("update_global_notifications"),
  id,
  user: z.string().optional(),
  notification_name: z.string(),
  setting: z.unknown(),
}));

export const realmUpdateEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm"),
  id,
  op: z.literal("update"),
  property: z.string(),
  value: z.unknown(),
}));

export const realmUpdateDictEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm"),
  id,
  op: z.literal("update_dict"),
  property: z.string(),
  data: z.record(z.string(), z.unknown()),
}));

export const realmDeactivatedEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm"),
  id,
  op: z.literal("deactivated"),
  realm_id: id,
}));

/** Without the individual_emoji_changes capability: every custom emoji, keyed by ID. */
export const realmEmojiUpdateEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm_emoji"),
  id,
  op: z.literal("update"),
  realm_emoji: z.record(z.string(), realmEmojiSchema),
}));

export const realmEmojiAddEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm_emoji"),
  id,
  op: z.literal("add"),
  emoji: realmEmojiSchema,
}));

/** The spec calls this op `edit`; the public service sends `update_one`. Both are read. */
export const realmEmojiEditEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm_emoji"),
  id,
  op: z.enum(["edit", "update_one"]),
  emoji_id: z.string(),
  data: tolerantObject({ deactivated: z.boolean().optional(), name: z.string().optional() }),
}));

export const realmLinkifiersEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm_linkifiers"),
  id,
  realm_linkifiers: z.array(linkifierSchema),
}));

export const alertWordsEvent = z.lazy(() => tolerantObject({
  type: z.literal("alert_words"),
  id,
  alert_words: z.array(z.string()),
}));

export const draftsAddEvent = z.lazy(() => tolerantObject({
  type: z.literal("drafts"),
  id,
  op: z.literal("add"),
  drafts: z.array(draftSchema),
}));
export const draftsUpdateEvent = z.lazy(() => tolerantObject({ type: z.literal("drafts"), id, op: z.literal("update"), draft: draftSchema }));
export const draftsRemoveEvent = z.lazy(() => tolerantObject({ type: z.literal("drafts"), id, op: z.literal("remove"), draft_id: id }));

const snippetFields = () => ({ type: z.literal("saved_snippets"), id, saved_snippet: savedSnippetSchema });
export const savedSnippetsAddEvent = z.lazy(() => tolerantObject({ ...snippetFields(), op: z.literal("add") }));
export const savedSnippetsUpdateEvent = z.lazy(() => tolerantObject({ ...snippetFields(), op: z.literal("update") }));
export const savedSnippetsRemoveEvent = z.lazy(() => tolerantObject({
  type: z.literal("saved_snippets"),
  id,
  op: z.literal("remove"),
  saved_snippet_id: id,
}));

/** The public service names this type `navigation_view`; the spec says `navigation_views`. Both are read. */
const navType = z.lazy(() => z.enum(["navigation_view", "navigation_views"]));
export const navigationViewAddEvent = z.lazy(() => tolerantObject({
  type: navType,
  id,
  op: z.literal("add"),
  navigation_view: navigationViewSchema,
}));
export const navigationViewUpdateEvent = z.lazy(() => tolerantObject({
  type: navType,
  id,
  op: z.literal("update"),
  fragment: z.string(),
  data: tolerantObject({ is_pinned: z.boolean().optional(), name: z.string().nullish() }),
}));
export const navigationViewRemoveEvent = z.lazy(() => tolerantObject({ type: navType, id, op: z.literal("remove"), fragment: z.string() }));

/** The server restarted; `svc_feature_level` (public name `zulip_feature_level`) tells what it now supports. */
export const restartEvent = z.lazy(() => z.preprocess(
  (raw) => {
    const r = raw as Record<string, unknown>;
    return r && r.svc_feature_level === undefined && r.zulip_feature_level !== undefined
      ? { ...r, svc_feature_level: r.zulip_feature_level }
      : raw;
  },
  tolerantObject({
    type: z.literal("restart"),
    id,
    server_generation: z.number().optional(),
    svc_feature_level: z.number().int().optional(),
    zulip_version: z.string().optional(),
    immediate: z.boolean().optional(),
  }),
));

export const settingsEventTable = {
  user_settings: { ops: { update: userSettingsUpdateEvent } },
  update_display_settings: updateDisplaySettingsEvent,
  update_global_notifications: updateGlobalNotificationsEvent,
  realm: { ops: { update: realmUpdateEvent, update_dict: realmUpdateDictEvent, deactivated: realmDeactivatedEvent } },
  realm_emoji: {
    ops: { update: realmEmojiUpdateEvent, add: realmEmojiAddEvent, edit: realmEmojiEditEvent, update_one: realmEmojiEditEvent },
  },
  realm_linkifiers: realmLinkifiersEvent,
  alert_words: alertWordsEvent,
  drafts: { ops: { add: draftsAddEvent, update: draftsUpdateEvent, remove: draftsRemoveEvent } },
  saved_snippets: { ops: { add: savedSnippetsAddEvent, update: savedSnippetsUpdateEvent, remove: savedSnippetsRemoveEvent } },
  navigation_view: { ops: { add: navigationViewAddEvent, update: navigationViewUpdateEvent, remove: navigationViewRemoveEvent } },
  navigation_views: { ops: { add: navigationViewAddEvent, update: navigationViewUpdateEvent, remove: navigationViewRemoveEvent } },
  restart: restartEvent,
} as const;
