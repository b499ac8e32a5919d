/**
 * A message's edit history (GET /messages/{id}/history) as steps a screen can
 * draw: the original, then each edit with a word diff of its content change
 * and the move it made (from channel/topic to channel/topic), or the topic
 * resolved or unresolved.
 *
 * Snapshots come oldest first, each with the message as it was after that
 * edit: its topic always, `prev_topic` when the topic changed, `stream` and
 * `prev_stream` when the channel changed, `content` and `prev_content` when
 * the content changed. The channel is not repeated when it did not change,
 * so it is followed back from the message's channel now.
 */
import type { MessageHistoryResponse } from "../api/schemas/responses.js";
import { wordDiff, type TextDiff } from "../render/word-diff.js";
import { RESOLVED_PREFIX } from "./apply-messages.js";

export type HistorySnapshot = MessageHistoryResponse["message_history"][number];

export interface EditMove {
  /** A change of channel and/or topic; resolving or unresolving a topic (adding or removing its ✔) is told apart. */
  kind: "move" | "resolve" | "unresolve";
  from: { channelId: number | undefined; topic: string };
  to: { channelId: number | undefined; topic: string };
}

export interface EditStep {
  /** 0 for the original message. */
  index: number;
  /** Seconds. */
  timestamp: number;
  /** Who made the edit (the sender for the original); null for edits from before the service recorded editors. */
  userId: number | null;
  /** The message after this step. */
  content: string;
  topic: string;
  channelId: number | undefined;
  /** When the content changed: what changed, word by word. */
  diff?: TextDiff;
  /** When the message moved (or its topic was resolved). */
  move?: EditMove;
}

function moveKind(from: { channelId: number | undefined; topic: string }, to: { channelId: number | undefined; topic: string }): EditMove["kind"] {
  if (from.channelId !== to.channelId) return "move";
  if (!from.topic.startsWith(RESOLVED_PREFIX) && to.topic === RESOLVED_PREFIX + from.topic) return "resolve";
  if (from.topic.startsWith(RESOLVED_PREFIX) && from.topic === RESOLVED_PREFIX + to.topic) return "unresolve";
  return "move";
}

/**
 * The steps, oldest first. `channelId`: the message's channel now (undefined
 * for direct messages). `diff` options go to wordDiff (its cost budget).
 */
export function editSteps(history: readonly HistorySnapshot[], channelId: number | undefined, o: { budget?: number } = {}): EditStep[] {
  // The channel after each snapshot, followed back from now.
  const channels: Array<number | undefined> = [];
  let channel = channelId;
  for (let i = history.length - 1; i >= 0; i--) {
    const s = history[i] as HistorySnapshot;
    channels[i] = s.stream ?? channel;
    if (s.prev_stream !== undefined) channel = s.prev_stream;
  }
  const steps: EditStep[] = [];
  let content = "";
  let topic = "";
  history.forEach((s, index) => {
    const after = { channelId: channels[index], topic: s.topic ?? topic };
    const before = index === 0 ? after : { channelId: s.prev_stream ?? after.channelId, topic: s.prev_topic ?? after.topic };
    const nowContent = s.content ?? content;
    const step: EditStep = { index, timestamp: s.timestamp, userId: s.user_id ?? null, content: nowContent, topic: after.topic, channelId: after.channelId };
    if (index > 0 && s.prev_content !== undefined) step.diff = wordDiff(s.prev_content, nowContent, o);
    if (index > 0 && (s.prev_topic !== undefined || s.prev_stream !== undefined)) step.move = { kind: moveKind(before, after), from: before, to: after };
    steps.push(step);
    content = nowContent;
    topic = after.topic;
  });
  return steps;
}
