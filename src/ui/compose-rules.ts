/**
 * Pure rules of composing shared by the compose feature, its hook and its
 * popups: where a reply goes, how a conversation is labelled, and what the
 * organization's topic rules allow. (A module of its own so the popups need
 * not import the feature that opens them.)
 */
import type { Message } from "../api/schemas/common.js";
import { dmParticipants, messageDmUsers } from "../model/narrow.js";
import { narrowTitle } from "../model/selectors.js";
import type { Store } from "../model/store.js";
import { sanitizeInline } from "../render/sanitize.js";
import type { SendTarget } from "../sync/account-handle.js";
import { targetNarrow } from "../model/narrow.js";

/** The conversation a message belongs to. */
export function targetOfMessage(store: Store, m: Message): SendTarget {
  if (m.type === "stream" && m.stream_id !== undefined) return { type: "stream", channelId: m.stream_id, topic: m.subject };
  return { type: "direct", userIds: dmParticipants(messageDmUsers(m), store.selfId) };
}

/** How a conversation is named in the compose box and elsewhere. */
export function composeLabel(store: Store, target: SendTarget): string {
  return sanitizeInline(narrowTitle(store, targetNarrow(target)));
}

/** The channel's effective topics policy (its own, else the organization's). */
export function topicsPolicy(store: Store, channelId: number, register?: Record<string, unknown>): string {
  const own = (store.channel(channelId) as { topics_policy?: string } | undefined)?.topics_policy;
  if (own && own !== "inherit") return own;
  const realm = store.realm.settings["topics_policy"] ?? register?.["realm_topics_policy"];
  if (typeof realm === "string" && realm !== "inherit") return realm;
  const mandatory = store.realm.settings["mandatory_topics"] ?? register?.["realm_mandatory_topics"];
  return mandatory === true ? "disable_empty_topic" : "allow_empty_topic";
}

/** Whether a topic name is allowed in a channel; what is wrong otherwise. */
export function topicProblem(store: Store, channelId: number, topic: string, register?: Record<string, unknown>): string | undefined {
  if ([...topic].length > store.realm.maxTopicLength) {
    return `The topic is longer than the organization's limit of ${store.realm.maxTopicLength} characters.`;
  }
  const policy = topicsPolicy(store, channelId, register);
  if (topic.trim() === "" && policy === "disable_empty_topic") {
    return `#${sanitizeInline(store.channelName(channelId) ?? String(channelId))} requires a topic: messages without one ("${sanitizeInline(store.realm.emptyTopicName)}") are not allowed there.`;
  }
  if (topic.trim() !== "" && policy === "empty_topic_only") {
    return `#${sanitizeInline(store.channelName(channelId) ?? String(channelId))} only takes messages without a topic ("${sanitizeInline(store.realm.emptyTopicName)}"); leave the topic empty.`;
  }
  return undefined;
}
