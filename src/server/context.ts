// What every route handler can reach: the organization state, the event
// queues, the Markdown renderer, the clock and the resolved options.

import type { MarkdownRenderer } from "./markdown-html.js";
import type { QueueManager } from "./queues.js";
import type { RateLimiter } from "./rate-limit.js";
import type { ThumbnailFormat } from "./image-thumbnails.js";
import type { Scheduler } from "./scheduled-delivery.js";
import type { State } from "./state.js";
import type { FileRequestRecord, ResponseRecord } from "./types.js";

export interface ResolvedOptions {
  heartbeatMs: number;
  queueIdleMs: number;
  longpollTimeoutSecs: number;
  /** What uploaded images are thumbnailed into (none when thumbnails are off). */
  thumbnailFormats: readonly ThumbnailFormat[];
  /** The feature level reported (and answered as): FEATURE_LEVEL unless an older server is played. */
  featureLevel: number;
}

export interface ServerContext {
  state: State;
  queues: QueueManager;
  markdown: MarkdownRenderer;
  /** Delivers scheduled messages and reminders at their time (re-armed after each change to them). */
  scheduler: Scheduler;
  /** Clock in milliseconds. */
  now(): number;
  /** e.g. http://127.0.0.1:43123 — set once the server listens. */
  realmUrl: string;
  options: ResolvedOptions;
  /** Absent when rate limiting is disabled. */
  rateLimiter?: RateLimiter;
  /** The `onResponse` option: sees every response sent. */
  onResponse?: (record: ResponseRecord) => void;
  /** The `onFileRequest` option: sees every file download answered. */
  onFileRequest?: (record: FileRequestRecord) => void;
}

export const FEATURE_LEVEL = 496;
/**
 * Where `anchor=date` with `anchor_date` (GET /messages) arrived. The spec describes it at its
 * level (496); the public 10.2 changelog (level 372) does not have it, and nothing here says
 * the exact level in between, so servers playing an older level than the spec's refuse it.
 */
export const ANCHOR_DATE_LEVEL = 496;
export const SERVER_VERSION = "termchat-reference 1.0";
export const LIMITS = {
  maxStreamNameLength: 60,
  maxStreamDescriptionLength: 1024,
  maxTopicLength: 60,
  maxMessageLength: 10000,
  maxChannelFolderNameLength: 60,
  maxChannelFolderDescriptionLength: 1024,
  maxMessagesPerFetch: 5000,
} as const;

export function nowSeconds(ctx: ServerContext): number {
  return Math.floor(ctx.now() / 1000);
}
