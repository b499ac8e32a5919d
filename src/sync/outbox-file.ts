/**
 * The outbox's entries and their file. Messages written while offline wait
 * here, persisted, until they are sent; see outbox.ts for the state machine.
 */
import { join } from "node:path";
import * as z from "zod";
import { targetNarrow, topicKey, type Narrow } from "../model/narrow.js";
import type { UpdateMessageParams } from "../api/routes/messages.js";
import { accountStem, FileWriter, readJsonFile, removeStaleTemps, type AccountRef } from "./persist.js";

export type SendTarget = { type: "stream"; channelId: number; topic: string } | { type: "direct"; userIds: number[] };

/**
 * - `waiting`: not on the server; sent when the connection is live (waiting-for-connection).
 * - `sending`: the request is in flight.
 * - `unknown`: an attempt failed in a way that leaves open whether it landed;
 *   settled by our echo (`local_message_id`) or by looking at the conversation's
 *   recent messages once connected.
 * - `sent`: on the server (`messageId`).
 * - `failed`: refused by the server (`error` says why); the text is kept.
 */
export type OutboxState = "waiting" | "sending" | "unknown" | "sent" | "failed";

export interface OutboxEntry {
  /** Also the `local_id` of every attempt, so any attempt's echo identifies it. */
  id: string;
  target: SendTarget;
  content: string;
  createdAt: number;
  state: OutboxState;
  attempts: number;
  /** Highest message id known when the entry was written: a copy on the server has a larger id. */
  floorId: number;
  /** The queue the last attempt named, whose events carry our echo. */
  queueId?: string;
  /** When the last attempt ended (unknown state: verification waits a little after it). */
  attemptEndedAt?: number;
  /** Not before this time (a 429's retry-after, or backoff after a failure). */
  notBefore?: number;
  messageId?: number;
  /** Why it failed, or the last transient problem. */
  error?: string;
}

/**
 * An edit of a message already on the server (see outbox-edits.ts).
 * `waiting`, `sending`, `unknown` and `failed` mean what they mean for a
 * message; an edit the server has is removed.
 */
export type EditState = "waiting" | "sending" | "unknown" | "failed";

export interface EditEntry {
  id: string;
  messageId: number;
  params: UpdateMessageParams;
  createdAt: number;
  state: EditState;
  attempts: number;
  attemptEndedAt?: number;
  notBefore?: number;
  error?: string;
  code?: string;
}

const editSchema = z.lazy(() => z.object({
  id: z.string(),
  messageId: z.number().int(),
  params: z.object({
    content: z.string().optional(),
    topic: z.string().optional(),
    stream_id: z.number().int().optional(),
    propagate_mode: z.enum(["change_one", "change_later", "change_all"]).optional(),
    send_notification_to_old_thread: z.boolean().optional(),
    send_notification_to_new_thread: z.boolean().optional(),
    prev_content_sha256: z.string().optional(),
  }),
  createdAt: z.number(),
  state: z.enum(["waiting", "sending", "unknown", "failed"]),
  attempts: z.number().int().default(0),
  attemptEndedAt: z.number().optional(),
  notBefore: z.number().optional(),
  error: z.string().optional(),
  code: z.string().optional(),
}));

const targetSchema = z.lazy(() => z.union([
  z.object({ type: z.literal("stream"), channelId: z.number().int(), topic: z.string() }),
  z.object({ type: z.literal("direct"), userIds: z.array(z.number().int()) }),
]));

const entrySchema = z.lazy(() => z.object({
  id: z.string(),
  target: targetSchema,
  content: z.string(),
  createdAt: z.number(),
  state: z.enum(["waiting", "sending", "unknown", "sent", "failed"]),
  attempts: z.number().int().default(0),
  floorId: z.number().int().default(0),
  queueId: z.string().optional(),
  attemptEndedAt: z.number().optional(),
  notBefore: z.number().optional(),
  messageId: z.number().int().optional(),
  error: z.string().optional(),
}));

const fileSchema = z.lazy(() => z.object({
  version: z.literal(1),
  entries: z.array(z.unknown()).default([]),
  /** Message ids already matched to entries, so one server message never settles two. */
  claimed: z.array(z.number().int()).default([]),
  edits: z.array(z.unknown()).default([]),
}));

const MAX_CLAIMED = 200;

type Snapshot = { entries: OutboxEntry[]; claimed: number[]; edits: EditEntry[] };

/**
 * An edit that was in flight when the process died: a content edit is checked
 * against the server before it is sent again; a move is reported, not repeated.
 */
function reloadedEdit(e: EditEntry): EditEntry {
  if (e.state !== "sending") return e;
  if (e.params.topic === undefined && e.params.stream_id === undefined) return { ...e, state: "unknown", attemptEndedAt: e.attemptEndedAt ?? 0 };
  return { ...e, state: "failed", code: "move-interrupted", error: "The program stopped during this move; it may or may not have happened. Moves are not repeated on their own." };
}

export class OutboxFile {
  private readonly writer: FileWriter;

  private constructor(
    readonly path: string,
    dir: string,
    snapshot: () => Snapshot,
  ) {
    this.writer = new FileWriter(path, dir, () => {
      const s = snapshot();
      return {
        version: 1,
        // Sent entries are done: only what still needs the network is kept.
        entries: s.entries.filter((e) => e.state !== "sent"),
        claimed: s.claimed.slice(-MAX_CLAIMED),
        edits: s.edits,
      };
    });
  }

  static pathFor(dir: string, account: AccountRef): string {
    return join(dir, `outbox-${accountStem(account)}.json`);
  }

  /**
   * Loads the entries of an earlier run. One that was `sending` when the process
   * died may have landed: it comes back `unknown`, to be checked before any resend.
   */
  static async load(
    dir: string,
    account: AccountRef,
    snapshot: () => Snapshot,
  ): Promise<{ file: OutboxFile; entries: OutboxEntry[]; claimed: number[]; edits: EditEntry[] }> {
    const path = OutboxFile.pathFor(dir, account);
    await removeStaleTemps(path);
    const parsed = fileSchema.safeParse(await readJsonFile(path));
    const entries: OutboxEntry[] = [];
    if (parsed.success) {
      for (const raw of parsed.data.entries) {
        const e = entrySchema.safeParse(raw);
        if (!e.success) continue;
        const entry = e.data as OutboxEntry;
        if (entry.state === "sending") entry.state = "unknown";
        if (entry.state !== "sent") entries.push(entry);
      }
    }
    const edits: EditEntry[] = [];
    for (const raw of parsed.success ? parsed.data.edits : []) {
      const e = editSchema.safeParse(raw);
      if (e.success) edits.push(reloadedEdit(e.data as EditEntry));
    }
    return { file: new OutboxFile(path, dir, snapshot), entries, claimed: parsed.success ? parsed.data.claimed : [], edits };
  }

  save(): Promise<void> {
    return this.writer.write();
  }

  idle(): Promise<void> {
    return this.writer.idle();
  }

  get lastError(): unknown {
    return this.writer.lastError;
  }
}

export { targetNarrow };

/** Whether messages to `t` show in `narrow` (the outbox is drawn under the narrow's messages). */
export function targetInNarrow(t: SendTarget, narrow: Narrow): boolean {
  switch (narrow.kind) {
    case "feed":
      return true;
    case "channel":
      return t.type === "stream" && t.channelId === narrow.channelId;
    case "topic":
      return t.type === "stream" && t.channelId === narrow.channelId && topicKey(t.topic) === topicKey(narrow.topic);
    case "dm":
      return t.type === "direct" && [...t.userIds].sort((a, b) => a - b).join(",") === narrow.userIds.join(",");
    case "all-dms":
      return t.type === "direct";
    default:
      return false;
  }
}
