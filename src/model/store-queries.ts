/**
 * Questions that read several sub-models at once: where a narrow's first
 * unread message is, the register's records still to check (and those left
 * out), and the store-wide consistency check used by tests.
 */
import { dmParticipants, narrowKey, type Narrow } from "./narrow.js";
import type { Store } from "./store.js";

function minOf(ids: Iterable<number>, best: number | undefined, accept?: (id: number) => boolean): number | undefined {
  for (const id of ids) if ((best === undefined || id < best) && (!accept || accept(id))) best = id;
  return best;
}

/**
 * Checks up to `count` of the register's records that arrive unchecked (users, then channels
 * one can join; see LazyMap); returns how many remain (0: all checked).
 */
export function checkSomeRecords(store: Store, count: number): number {
  const users = store.people.byId.checkSome(count);
  return users > 0 ? users : store.channelsModel.neverSubscribed.checkSome(count);
}

/** The register's records left out as malformed, in one line (undefined when there are none). */
export function malformedRecords(store: Store): string | undefined {
  const kinds = [
    { what: "user", problems: store.people.byId.problems },
    { what: "channel", problems: store.channelsModel.neverSubscribed.problems },
  ].filter((k) => k.problems.length > 0);
  if (!kinds.length) return undefined;
  const counts = kinds.map(({ what, problems: p }) => `${p.length} malformed ${what}${p.length > 1 ? "s" : ""}`);
  return `Left out ${counts.join(" and ")} (${kinds[0]!.problems[0]})`;
}

/** The oldest unread message of a narrow: from the unread model when it can tell, else from the loaded list. */
export function firstUnreadIn(store: Store, narrow: Narrow): number | undefined {
  const u = store.unreads;
  switch (narrow.kind) {
    case "topic":
      return minOf(u.idsInTopic(narrow.channelId, narrow.topic), undefined);
    case "channel": {
      let best: number | undefined;
      for (const b of u.topicBuckets(narrow.channelId)) best = minOf(b.ids, best);
      return best;
    }
    case "dm": {
      const key = dmParticipants(narrow.userIds, store.selfId).join(",");
      for (const b of u.dmBuckets()) if (b.key === key) return minOf(b.ids, undefined);
      return undefined;
    }
    case "all-dms": {
      let best: number | undefined;
      for (const b of u.dmBuckets()) best = minOf(b.ids, best);
      return best;
    }
    case "feed": {
      let best: number | undefined;
      for (const b of u.dmBuckets()) best = minOf(b.ids, best);
      for (const channelId of u.channelIds()) {
        for (const b of u.topicBuckets(channelId)) if (store.isVisibleInFeed(channelId, b.topic)) best = minOf(b.ids, best);
      }
      return best;
    }
    case "mentioned":
      return minOf(store.mentionIds(), undefined);
    case "starred":
      return minOf(store.messages.starred, undefined, (id) => u.has(id));
    case "search": {
      const l = store.messages.list(narrow);
      return l?.ids.find((id) => u.has(id));
    }
  }
}

/**
 * Recomputes what the store keeps incrementally and compares: the unread
 * counters, the lists (sorted, known messages, matching their narrow), the
 * starred set against loaded messages' flags. Returns the disagreements.
 */
export function checkStore(store: Store): string[] {
  const problems = [...store.unreads.recount(), ...store.recent.recount()];
  for (const l of store.messages.lists.values()) {
    if (l.key !== narrowKey(l.narrow)) problems.push(`list ${l.key} filed under the wrong key`);
    for (let i = 0; i < l.ids.length; i++) {
      const id = l.ids[i] as number;
      if (i > 0 && id <= (l.ids[i - 1] as number)) problems.push(`list ${l.key} not sorted at ${i}`);
      if (!store.messages.byId.has(id)) problems.push(`list ${l.key} holds unknown message ${id}`);
    }
  }
  for (const m of store.messages.byId.values()) {
    const starred = m.flags.includes("starred");
    if (starred !== store.messages.starred.has(m.id)) problems.push(`message ${m.id}: starred flag ${starred}, set ${!starred}`);
    if (m.flags.includes("read") && store.unreads.has(m.id)) problems.push(`message ${m.id} has the read flag but is counted unread`);
  }
  return problems;
}
