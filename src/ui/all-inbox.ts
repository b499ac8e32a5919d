/**
 * The combined Inbox's rows: every open organization's unread conversations
 * (direct messages first, then topics, as each one's own Inbox orders them),
 * grouped under a row per organization with its total. An organization with
 * nothing unread keeps its row (it says 0, or what is wrong with it).
 */
import type { Narrow } from "../model/narrow.js";
import { inbox } from "../model/selectors-views.js";
import type { Store } from "../model/store.js";
import type { OrgSummary } from "./organizations.js";

export type AllInboxRow =
  | { kind: "org"; key: string; label: string; unread: number; trouble: string | undefined }
  | { kind: "conversation"; key: string; label: string; unread: number; mentioned: boolean; narrow: Narrow };

export function allInboxRows(orgs: Array<{ org: OrgSummary; store: Store | undefined }>): AllInboxRow[] {
  const rows: AllInboxRow[] = [];
  for (const { org, store } of orgs) {
    const box = store ? inbox(store) : undefined;
    rows.push({ kind: "org", key: org.key, label: org.name, unread: box?.total ?? 0, trouble: org.trouble });
    if (!box) continue;
    for (const d of box.dms) rows.push({ kind: "conversation", key: org.key, label: `@ ${d.names}`, unread: d.unread, mentioned: d.mentioned, narrow: { kind: "dm", userIds: d.userIds } });
    for (const c of box.channels) {
      for (const t of c.topics) {
        rows.push({ kind: "conversation", key: org.key, label: `#${c.name} > ${t.displayName}`, unread: t.unread, mentioned: t.mentioned, narrow: { kind: "topic", channelId: c.channelId, topic: t.topic } });
      }
    }
  }
  return rows;
}
