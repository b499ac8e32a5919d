/**
 * One exhaustive switch from server events to store changes. Returns whether
 * anything a view shows may have changed. Events arrive parsed (the api layer
 * validated them): no schema work happens here.
 */
import type { ServerEvent } from "../api/schemas/events.js";
import { applyDelete, applyFlags, applyMessage, applyReaction, applySubmessage, applyUpdateMessage } from "./apply-messages.js";
import type { ChannelChange } from "./channels.js";
import type { Store } from "./store.js";

export function applyEvent(store: Store, e: ServerEvent): boolean {
  switch (e.type) {
    case "heartbeat":
    case "unknown":
      return false;

    // Messages.
    case "message":
      return applyMessage(store, e);
    case "update_message":
      return applyUpdateMessage(store, e);
    case "delete_message":
      return applyDelete(store, e);
    case "reaction":
      return applyReaction(store, e);
    case "update_message_flags":
      return applyFlags(store, e);
    case "submessage":
      return applySubmessage(store, e);
    case "typing":
      return store.typing.apply(e, store.now());
    case "typing_edit_message":
      return false; // shown by no view yet

    // Channels, folders, topics.
    case "subscription":
      return afterChannelChange(store, store.channelsModel.applySubscription(e));
    case "stream":
      return afterChannelChange(store, store.channelsModel.applyStream(e));
    case "channel_folder":
      return store.channelsModel.applyFolder(e).changed;
    case "user_topic": {
      const before = store.topicsModel.setPolicy(e.stream_id, e.topic_name, e.visibility_policy);
      if (before !== e.visibility_policy) store.refilterMuted();
      return true;
    }

    // People.
    case "realm_user":
      return store.people.applyRealmUser(e);
    case "user_group":
      return store.people.applyGroup(e);
    case "user_status":
      return store.people.setStatus(e.user_id, e);
    case "presence":
      // Presence has its own change channel (see Store.presenceChanged): not a change for the other views.
      if (store.presence.apply(e, (email) => store.userIdByEmail(email))) store.presenceChanged();
      return false;
    case "muted_users":
      store.mutedUsers.clear();
      for (const m of e.muted_users) store.mutedUsers.add(m.id);
      return true;
    case "custom_profile_fields":
      store.realm.settings["custom_profile_fields"] = e.fields;
      return true;

    // Settings and per-user data.
    case "user_settings":
      return store.personal.setSetting(e.property, e.value);
    case "update_display_settings":
      return store.personal.setSetting(e.setting_name, e.setting);
    case "update_global_notifications":
      return store.personal.setSetting(e.notification_name, e.setting);
    case "realm":
      return applyRealm(store, e);
    case "realm_emoji":
      return store.personal.applyRealmEmoji(e);
    case "realm_linkifiers":
      store.personal.linkifiers = e.realm_linkifiers;
      return true;
    case "alert_words":
      store.alertWords = e.alert_words;
      return true;
    case "drafts":
      return store.personal.applyDrafts(e);
    case "saved_snippets":
      return store.personal.applySnippets(e);
    case "navigation_view":
    case "navigation_views":
      return store.personal.applyNavigationView(e);
    case "scheduled_messages":
      return store.scheduled.applyScheduledMessages(e);
    case "reminders":
      return store.scheduled.applyReminders(e);
    case "restart":
      if (e.svc_feature_level !== undefined) store.realm.featureLevel = e.svc_feature_level;
      return false;
  }
  // No default: a new known event type makes this function fail to compile until it is handled above.
}

/** Other sub-models follow channel changes: feed membership on mute, unreads and topics on deletion. */
function afterChannelChange(store: Store, c: ChannelChange): boolean {
  if (c.muteChanged?.length || c.subscriptionChanged?.length) store.refilterMuted();
  // While unsubscribed no message events come: what the client knows of the channel goes out of date.
  for (const id of c.subscriptionChanged ?? []) {
    store.topicsModel.loaded.delete(id);
    store.messages.markStale(undefined, (l) => (l.narrow.kind === "channel" || l.narrow.kind === "topic") && l.narrow.channelId === id);
  }
  for (const id of c.deleted ?? []) {
    store.unreads.clearChannel(id);
    store.topicsModel.dropChannel(id);
    store.recent.dropChannel(id);
  }
  return c.changed;
}

function applyRealm(store: Store, e: Extract<ServerEvent, { type: "realm" }>): boolean {
  switch (e.op) {
    case "update":
      store.realm.settings[e.property] = e.value;
      if (e.property === "name" && typeof e.value === "string") store.realm.name = e.value;
      if (e.property === "empty_topic_display_name" && typeof e.value === "string") store.realm.emptyTopicName = e.value;
      return true;
    case "update_dict":
      for (const [k, v] of Object.entries(e.data)) store.realm.settings[k] = v;
      if (typeof e.data["empty_topic_display_name"] === "string") store.realm.emptyTopicName = e.data["empty_topic_display_name"];
      return true;
    case "deactivated":
      store.realm.settings["deactivated"] = true;
      return true;
  }
}
