/**
 * Whether a message on the server is the copy of an outbox entry: ours, newer
 * than anything known when the entry was written, the same text, the same
 * conversation. Used to settle an entry whose send may or may not have landed.
 */
import type { Message } from "../api/schemas/common.js";
import { dmParticipants, messageDmUsers, topicKey } from "../model/narrow.js";
import type { OutboxEntry } from "./outbox-file.js";

const normalize = (s: string) => s.replace(/\r\n?/g, "\n").trimEnd();

export function isCopyOf(e: OutboxEntry, m: Message, selfId: number): boolean {
  if (m.sender_id !== selfId || m.id <= e.floorId) return false;
  // Landed after it was written (server clocks may be a little off).
  if (m.timestamp * 1000 < e.createdAt - 10 * 60_000) return false;
  if (normalize(m.content) !== normalize(e.content)) return false;
  if (e.target.type === "stream") {
    return m.type === "stream" && m.stream_id === e.target.channelId && topicKey(m.subject) === topicKey(e.target.topic);
  }
  if (m.type !== "private") return false;
  const people = dmParticipants(messageDmUsers(m), selfId);
  return people.join(",") === dmParticipants(e.target.userIds, selfId).join(",");
}
