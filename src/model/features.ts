/**
 * What the server can do, by feature level: the client asks before it offers
 * (or attempts) something an older server does not have, and says so in a
 * sentence instead of failing with the server's "Endpoint not found".
 */

/** The feature level each feature arrived at (the service's changelog). */
export const FEATURE_LEVELS = {
  /** Read receipts of a message, and the organization setting that enables them. */
  readReceipts: 137,
  /** Create scheduled messages, with their register section and events (list and delete arrived at 173). */
  scheduledMessages: 179,
  /** Edit or reschedule a scheduled message. */
  editScheduledMessages: 184,
  /** Create, list and delete saved snippets. */
  savedSnippets: 297,
  /** Edit a saved snippet. */
  editSavedSnippets: 368,
  /** "Remind me about this message". */
  reminders: 381,
  /** Navigation views: create, edit, remove, with their register section and events. */
  navigationViews: 390,
  /** List and cancel reminders, with their register section and events. */
  reminderList: 399,
  /** A note on a reminder. */
  reminderNotes: 415,
  /**
   * `anchor=date` with `anchor_date` on GET /messages. The spec describes it (its level is 496);
   * the public 10.2 changelog (372) does not, and the exact level in between is not known here:
   * below the spec's level the client finds the message itself (see date-jump.ts).
   */
  anchorDate: 496,
} as const;

export type Feature = keyof typeof FEATURE_LEVELS;

/** How a person names each feature, in the sentence that says it is missing. */
const NAMES: Readonly<Record<Feature, string>> = {
  readReceipts: "read receipts",
  scheduledMessages: "scheduled messages",
  editScheduledMessages: "editing a scheduled message",
  savedSnippets: "saved snippets",
  editSavedSnippets: "editing a saved snippet",
  reminders: "message reminders",
  navigationViews: "navigation views",
  reminderList: "listing and cancelling reminders",
  reminderNotes: "a note on a reminder",
  anchorDate: "jumping to a date in one request",
};

export function hasFeature(featureLevel: number, feature: Feature): boolean {
  return featureLevel >= FEATURE_LEVELS[feature];
}

/** Why a feature cannot be used on this server; undefined when it can. */
export function missingFeature(featureLevel: number, feature: Feature): string | undefined {
  if (hasFeature(featureLevel, feature)) return undefined;
  return `This server is too old for ${NAMES[feature]} (feature level ${featureLevel}; ${FEATURE_LEVELS[feature]} or newer is needed).`;
}
