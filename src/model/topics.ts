/**
 * Topics: the topic list of each channel (from `get topics`, kept current by
 * message, move and delete events) and the user's visibility policy per topic.
 */
import type { Topic } from "../api/schemas/common.js";
import type { UserTopic } from "../api/schemas/register.js";
import { topicKey } from "./narrow.js";

export const VISIBILITY = { none: 0, muted: 1, unmuted: 2, followed: 3 } as const;

export interface TopicInfo {
  name: string;
  maxId: number;
}

/** Key of a (channel, topic) pair in maps. */
export function channelTopicKey(channelId: number, topic: string): string {
  return `${channelId}:${topicKey(topic)}`;
}

export class Topics {
  /** Per channel: topicKey → topic; present once fetched or seen. */
  readonly byChannel = new Map<number, Map<string, TopicInfo>>();
  /** Channels whose list came from the server and is still exact (a move or delete we could not follow drops it). */
  readonly loaded = new Set<number>();
  /** `${channelId}:${topicKey}` → visibility policy (none is not stored). */
  readonly policies = new Map<string, number>();
  /** The topic name as the server last sent it with its policy. */
  readonly policyNames = new Map<string, { channelId: number; topic: string }>();
  /** How many topics of each channel have a policy: counts over a channel with none need not ask topic by topic. */
  private readonly policiesPerChannel = new Map<number, number>();

  static fromRegister(userTopics: UserTopic[]): Topics {
    const t = new Topics();
    for (const u of userTopics) t.setPolicy(u.stream_id, u.topic_name, u.visibility_policy);
    return t;
  }

  policy(channelId: number, topic: string): number {
    if (this.policies.size === 0) return VISIBILITY.none;
    return this.policies.get(channelTopicKey(channelId, topic)) ?? VISIBILITY.none;
  }

  /** Whether any topic of the channel has a policy (else every topic's is none). */
  hasPolicyIn(channelId: number): boolean {
    return this.policiesPerChannel.has(channelId);
  }

  /** Sets a policy; returns the previous one. */
  setPolicy(channelId: number, topic: string, policy: number): number {
    const key = channelTopicKey(channelId, topic);
    const before = this.policies.get(key) ?? VISIBILITY.none;
    if (policy === VISIBILITY.none) {
      if (this.policies.delete(key)) this.notePolicies(channelId, -1);
      this.policyNames.delete(key);
    } else {
      if (before === VISIBILITY.none) this.notePolicies(channelId, 1);
      this.policies.set(key, policy);
      this.policyNames.set(key, { channelId, topic });
    }
    return before;
  }

  private notePolicies(channelId: number, delta: number): void {
    const n = (this.policiesPerChannel.get(channelId) ?? 0) + delta;
    if (n > 0) this.policiesPerChannel.set(channelId, n);
    else this.policiesPerChannel.delete(channelId);
  }

  /** Topics with a given policy, e.g. every followed topic. */
  withPolicy(policy: number): Array<{ channelId: number; topic: string }> {
    const out: Array<{ channelId: number; topic: string }> = [];
    for (const [k, p] of this.policies) {
      const where = this.policyNames.get(k);
      if (p === policy && where) out.push(where);
    }
    return out;
  }

  /** Topics of a channel, most recent first. */
  of(channelId: number): TopicInfo[] {
    return [...(this.byChannel.get(channelId)?.values() ?? [])].sort((a, b) => b.maxId - a.maxId);
  }

  get(channelId: number, topic: string): TopicInfo | undefined {
    return this.byChannel.get(channelId)?.get(topicKey(topic));
  }

  /** The server's list for a channel; topics seen in events meanwhile are kept. */
  set(channelId: number, topics: Topic[]): void {
    const map = new Map<string, TopicInfo>();
    for (const t of topics) map.set(topicKey(t.name), { name: t.name, maxId: t.max_id });
    for (const [k, t] of this.byChannel.get(channelId) ?? []) {
      const have = map.get(k);
      if (!have || have.maxId < t.maxId) map.set(k, t);
    }
    this.byChannel.set(channelId, map);
    this.loaded.add(channelId);
  }

  /** A message exists in a topic (sent, fetched or moved there). */
  note(channelId: number, topic: string, id: number): void {
    let topics = this.byChannel.get(channelId);
    if (!topics) this.byChannel.set(channelId, (topics = new Map()));
    const k = topicKey(topic);
    const t = topics.get(k);
    if (!t) topics.set(k, { name: topic, maxId: id });
    else if (t.maxId <= id) {
      // The topic is named as its newest message has it (a change of case included).
      t.maxId = id;
      t.name = topic;
    }
  }

  /**
   * Messages left a topic (deleted or moved away). When the topic's newest
   * message went, `remaining` gives the newest id still known there: with
   * none, the topic is dropped if `emptied`, else its list is no longer exact.
   */
  forget(
    channelId: number,
    topic: string,
    removed: Set<number>,
    remaining: () => { id: number; subject: string } | undefined,
    emptied = false,
  ): void {
    const topics = this.byChannel.get(channelId);
    const k = topicKey(topic);
    const t = topics?.get(k);
    if (!topics || !t) return;
    if (emptied) {
      topics.delete(k);
      return;
    }
    if (!removed.has(t.maxId)) return;
    const newest = remaining();
    if (newest !== undefined) {
      t.maxId = newest.id;
      t.name = newest.subject; // the topic is named as its newest message has it
      return;
    }
    // Nothing newer known: the server may still hold older messages in this topic.
    topics.delete(k);
    this.loaded.delete(channelId);
  }

  dropChannel(channelId: number): void {
    this.byChannel.delete(channelId);
    this.loaded.delete(channelId);
    for (const [k, where] of this.policyNames) {
      if (where.channelId === channelId) {
        this.policies.delete(k);
        this.policyNames.delete(k);
      }
    }
    this.policiesPerChannel.delete(channelId);
  }
}
