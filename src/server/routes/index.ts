// Every route module of the server. A new group of operations is a new module
// exporting a Route[] listed here.

import type { Route } from "../http.js";
import { alertWordRoutes } from "./alert-words.js";
import { authRoutes } from "./auth.js";
import { botStorageRoutes } from "./bot-storage.js";
import { channelListRoutes } from "./channel-list.js";
import { eventRoutes } from "./events.js";
import { flagRoutes } from "./flags.js";
import { messageRoutes } from "./messages.js";
import { navigationViewRoutes } from "./navigation-views.js";
import { readReceiptRoutes } from "./read-receipts.js";
import { reminderRoutes } from "./reminders.js";
import { scheduledMessageRoutes } from "./scheduled-messages.js";
import { registerRoutes } from "./register.js";
import { sendRoutes } from "./send.js";
import { topicRoutes } from "./topics.js";
import { channelFolderRoutes } from "./channel-folders.js";
import { channelRoutes } from "./channels.js";
import { draftRoutes } from "./drafts.js";
import { presenceRoutes } from "./presence.js";
import { pushRoutes } from "./push.js";
import { reactionRoutes } from "./reactions.js";
import { realmDataRoutes } from "./realm-data.js";
import { settingsRoutes } from "./settings.js";
import { statusRoutes } from "./status.js";
import { subscriptionRoutes } from "./subscriptions.js";
import { uploadRoutes } from "./uploads.js";
import { submessageRoutes } from "./submessages.js";
import { typingRoutes } from "./typing.js";
import { userGroupRoutes } from "./user-groups.js";
import { userTopicRoutes } from "./user-topics.js";
import { userRoutes } from "./users.js";

export const allRoutes: Route[] = [
  ...authRoutes,
  ...registerRoutes,
  ...eventRoutes,
  ...messageRoutes,
  ...sendRoutes,
  ...flagRoutes,
  ...topicRoutes,
  // Channels, subscriptions, users and per-user data. Literal paths (users/me,
  // subscriptions/properties) come before the `:param` ones they overlap.
  ...channelRoutes,
  ...channelListRoutes,
  ...subscriptionRoutes,
  ...userTopicRoutes,
  ...reactionRoutes,
  ...draftRoutes,
  ...statusRoutes,
  ...settingsRoutes,
  ...presenceRoutes,
  ...userRoutes,
  ...channelFolderRoutes,
  ...userGroupRoutes,
  ...typingRoutes,
  ...pushRoutes,
  ...alertWordRoutes,
  ...botStorageRoutes,
  ...realmDataRoutes,
  ...uploadRoutes,
  ...submessageRoutes,
  ...scheduledMessageRoutes,
  ...reminderRoutes,
  ...readReceiptRoutes,
  ...navigationViewRoutes,
];
