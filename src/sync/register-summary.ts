/**
 * What is kept of a register response once the store is built from it: the scalars (limits,
 * periods, feature level), the user's settings and the drafts. The large sections (users,
 * channels, unreads, presence…) live in the store; holding them here too would keep their
 * validated copies alive for the whole session.
 */
import type { RegisterResponse } from "../api/schemas/register.js";

const LARGE_SECTIONS = [
  "realm_users",
  "realm_non_active_users",
  "cross_realm_bots",
  "subscriptions",
  "unsubscribed",
  "never_subscribed",
  "channel_folders",
  "unread_msgs",
  "recent_private_conversations",
  "user_topics",
  "presences",
  "navigation_views",
  "saved_snippets",
  "scheduled_messages",
  "reminders",
  "realm_linkifiers",
  "realm_user_groups",
  "realm_emoji",
] as const;

type LargeSection = (typeof LARGE_SECTIONS)[number];
export type RegisterSummary = { [K in keyof RegisterResponse as K extends LargeSection ? never : K]: RegisterResponse[K] };

export function summarizeRegister(reg: RegisterResponse): RegisterSummary {
  const summary: Record<string, unknown> = { ...reg };
  for (const key of LARGE_SECTIONS) delete summary[key];
  return summary as RegisterSummary;
}
