/**
 * The organization as the client needs it: its name, address, feature level
 * and the limits and timings the register gives (with the service's own
 * values where an older server leaves them out).
 */
import type { RegisterResponse } from "../api/schemas/register.js";
import type { RegisterExtra, ThumbnailFormat } from "./register-extra.js";

export interface RealmInfo {
  name: string;
  url: string;
  featureLevel: number;
  emptyTopicName: string;
  maxTopicLength: number;
  maxMessageLength: number;
  /** Length limits (in characters) of channel and folder names and descriptions, from register. */
  maxChannelNameLength: number;
  maxChannelDescriptionLength: number;
  maxFolderNameLength: number;
  maxFolderDescriptionLength: number;
  /** The largest file the organization accepts, in MiB (0: uploads are off). */
  maxFileUploadMib: number;
  longpollTimeoutSecs: number;
  /** Typing: send "start" at most this often, "stop" after this pause; a start expires after this long. */
  typingStartedWaitMs: number;
  typingStoppedWaitMs: number;
  typingExpiryMs: number;
  /** Presence: report this often; someone not seen for the threshold is offline. */
  presencePingIntervalSecs: number;
  presenceOfflineThresholdSecs: number;
  presenceDisabled: boolean;
  /**
   * Whether the organization shows who read a message, as register said (a `realm` event may
   * change it since: see settings); undefined when register did not say.
   */
  readReceiptsEnabled?: boolean;
  /** The longest note a reminder may carry (the service's own limit where register leaves it out). */
  maxReminderNoteLength: number;
  /** Organization settings from `realm` events, by property name. */
  settings: Record<string, unknown>;
  /** What the server thumbnails uploaded images into (empty: it does not). */
  thumbnailFormats: readonly ThumbnailFormat[];
}

/** The organization's facts from a register response (and what readRegisterExtra read of it). */
export function realmFromRegister(reg: RegisterResponse, extra: RegisterExtra): RealmInfo {
  return {
    name: reg.realm_name,
    url: reg.realm_url ?? reg.realm_uri ?? "",
    featureLevel: reg.svc_feature_level,
    emptyTopicName: reg.realm_empty_topic_display_name,
    maxTopicLength: reg.max_topic_length,
    maxMessageLength: reg.max_message_length,
    maxChannelNameLength: reg.max_stream_name_length,
    maxChannelDescriptionLength: reg.max_stream_description_length,
    // Servers before channel folders do not send these; the service's own values then.
    maxFolderNameLength: reg.max_channel_folder_name_length ?? 60,
    maxFolderDescriptionLength: reg.max_channel_folder_description_length ?? 1024,
    maxFileUploadMib: reg.max_file_upload_size_mib ?? 25,
    longpollTimeoutSecs: reg.event_queue_longpoll_timeout_seconds ?? 90,
    typingStartedWaitMs: reg.server_typing_started_wait_period_milliseconds ?? 10_000,
    typingStoppedWaitMs: reg.server_typing_stopped_wait_period_milliseconds ?? 5_000,
    typingExpiryMs: reg.server_typing_started_expiry_period_milliseconds ?? 15_000,
    presencePingIntervalSecs: reg.server_presence_ping_interval_seconds ?? 60,
    presenceOfflineThresholdSecs: reg.server_presence_offline_threshold_seconds ?? 140,
    presenceDisabled: extra.presenceDisabled,
    ...(reg.realm_enable_read_receipts !== undefined ? { readReceiptsEnabled: reg.realm_enable_read_receipts } : {}),
    maxReminderNoteLength: reg.max_reminder_note_length ?? 1000,
    settings: Object.create(null) as Record<string, unknown>,
    thumbnailFormats: extra.thumbnailFormats,
  };
}
