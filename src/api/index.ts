export * from "./errors.js";
export * from "./http.js";
export * from "./site.js";
export * from "./ignored-parameters.js";
export * from "./routes/auth.js";
export * from "./routes/channel-folders.js";
export * from "./routes/channels.js";
export * from "./routes/drafts.js";
export * from "./routes/events.js";
export * from "./routes/messages.js";
export * from "./routes/navigation-views.js";
export * from "./routes/presence.js";
export * from "./routes/push.js";
export * from "./routes/reactions.js";
export * from "./routes/read-receipts.js";
export * from "./routes/saved-snippets.js";
export * from "./routes/scheduled-messages.js";
export * from "./routes/server-settings.js";
export * from "./routes/status.js";
export * from "./routes/submessages.js";
export * from "./routes/subscriptions.js";
export * from "./routes/topics.js";
export * from "./routes/typing.js";
export * from "./routes/user-groups.js";
export * from "./routes/user-topics.js";
export * from "./routes/users.js";
export type * from "./schemas/common.js";
export type { RegisterResponse, UnreadMsgs, UserTopic } from "./schemas/register.js";
export type * from "./schemas/responses.js";
export type * from "./schemas/responses-channels.js";
export type * from "./schemas/responses-users.js";
export type { Reminder, ScheduledMessage } from "./schemas/scheduled.js";
export type {
  DeleteMessageEvent,
  EventOfType,
  HeartbeatEvent,
  KnownEvent,
  KnownEventType,
  MessageEvent,
  ReactionEvent,
  RealmUserEvent,
  ServerEvent,
  SubmessageEvent,
  SubscriptionEvent,
  TypingEvent,
  UnknownEvent,
  UpdateMessageEvent,
  UpdateMessageFlagsEvent,
} from "./schemas/events.js";
export { KNOWN_EVENT_TYPES, MalformedEventError, parseEvent } from "./schemas/events.js";
