/**
 * Navigation views as the sidebar shows them: the service's built-in views in
 * their usual order, each pinned unless the user's record says otherwise, then
 * the user's custom views in the order the server keeps them. A view's
 * fragment is a web-app address ("inbox", "narrow/is/starred",
 * "narrow/channel/5-general/topic/plans"); where termchat has the same view,
 * the row says which.
 */
import type { NarrowTerm } from "../api/schemas/common.js";
import { dmParticipants, type Narrow } from "./narrow.js";
import type { Store } from "./store.js";
import type { ViewId } from "./selectors-views.js";

export interface NavigationViewRow {
  fragment: string;
  name: string;
  isPinned: boolean;
  builtIn: boolean;
  /** termchat's own view for a built-in one (Inbox…), or the narrow the fragment stands for. */
  opens?: { view: ViewId } | { narrow: Narrow };
}

/** The service's built-in views: fragment, name, what they open here. */
export const BUILT_IN_NAVIGATION_VIEWS: readonly { fragment: string; name: string; opens?: NavigationViewRow["opens"] }[] = [
  { fragment: "inbox", name: "Inbox", opens: { view: "inbox" } },
  { fragment: "recent", name: "Recent conversations" },
  { fragment: "feed", name: "Combined feed", opens: { view: "feed" } },
  { fragment: "narrow/is/mentioned", name: "Mentions", opens: { view: "mentions" } },
  { fragment: "narrow/has/reaction/sender/me", name: "Reactions", opens: { narrow: searchNarrow([{ operator: "has", operand: "reaction" }, { operator: "sender", operand: "me" }]) } },
  { fragment: "narrow/is/starred", name: "Starred messages", opens: { view: "starred" } },
  { fragment: "drafts", name: "Drafts" },
];
const BUILT_IN: ReadonlyMap<string, (typeof BUILT_IN_NAVIGATION_VIEWS)[number]> = new Map(BUILT_IN_NAVIGATION_VIEWS.map((v) => [v.fragment, v]));

export function isBuiltInView(fragment: string): boolean {
  return BUILT_IN.has(fragment);
}

/** Every navigation view: built-in ones first (pinned by default), then custom ones. */
export function navigationViewRows(store: Store): NavigationViewRow[] {
  const records = store.personal.navigationViews;
  const rows: NavigationViewRow[] = BUILT_IN_NAVIGATION_VIEWS.map((v) => ({
    fragment: v.fragment,
    name: v.name,
    isPinned: records.get(v.fragment)?.is_pinned ?? true,
    builtIn: true,
    ...(v.opens ? { opens: v.opens } : {}),
  }));
  for (const r of records.values()) {
    if (BUILT_IN.has(r.fragment)) continue;
    const opens = fragmentNarrow(r.fragment, store.selfId);
    // A view of a newer server's that has no name here is named by its address.
    rows.push({ fragment: r.fragment, name: r.name ?? r.fragment, isPinned: r.is_pinned, builtIn: false, ...(opens ? { opens: { narrow: opens } } : {}) });
  }
  return rows;
}

/** The pinned views, in sidebar order. */
export function pinnedNavigationViews(store: Store): NavigationViewRow[] {
  return navigationViewRows(store).filter((r) => r.isPinned);
}

// The web app's address encoding: percent-encoding with '.' in place of '%' (and '.', '(' and ')' escaped).
const HASH_REPLACEMENTS: Record<string, string> = { "%": ".", "(": ".28", ")": ".29", ".": ".2E" };

export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s).replace(/[%().]/g, (c) => HASH_REPLACEMENTS[c] ?? c);
}

/**
 * The fragment that stands for a narrow, as the web app writes it ("narrow/channel/5-general/topic/plans"):
 * what a navigation view of the open narrow records. `fragmentNarrow` reads it back.
 */
export function narrowFragment(store: Store, n: Narrow): string {
  const channel = (id: number) => encodeHashComponent(`${id}-${(store.channelName(id) ?? "").replace(/ /g, "-")}`);
  switch (n.kind) {
    case "feed":
      return "feed";
    case "channel":
      return `narrow/channel/${channel(n.channelId)}`;
    case "topic":
      return `narrow/channel/${channel(n.channelId)}/topic/${encodeHashComponent(n.topic)}`;
    case "dm": {
      const ids = [...new Set([...n.userIds, store.selfId])].sort((a, b) => a - b);
      return `narrow/dm/${ids.join(",")}-${ids.length >= 3 ? "group" : "dm"}`;
    }
    case "all-dms":
      return "narrow/is/dm";
    case "mentioned":
      return "narrow/is/mentioned";
    case "starred":
      return "narrow/is/starred";
    case "search": {
      const terms = n.terms ?? [{ operator: "search", operand: n.query }];
      return "narrow/" + terms.map((t) => `${t.negated ? "-" : ""}${encodeHashComponent(t.operator)}/${encodeHashComponent(String(t.operand))}`).join("/");
    }
  }
}

/** The web app's address encoding: percent-encoding with "." in place of "%". */
function hashDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\.([0-9A-Fa-f]{2})/g, "%$1"));
  } catch {
    return text;
  }
}

function searchNarrow(terms: NarrowTerm[]): Narrow {
  return { kind: "search", query: terms.map((t) => `${t.operator}:${String(t.operand)}`).join(" "), terms };
}

/** The narrow a "narrow/operator/operand/…" fragment stands for; undefined for anything else. */
export function fragmentNarrow(fragment: string, selfId: number): Narrow | undefined {
  const parts = fragment.split("/");
  if (parts[0] !== "narrow" || parts.length < 3 || parts.length % 2 === 0) return undefined;
  const terms: NarrowTerm[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const negated = parts[i]!.startsWith("-");
    const operator = hashDecode(parts[i]!.replace(/^-/, ""));
    terms.push({ operator, operand: hashDecode(parts[i + 1]!), ...(negated ? { negated } : {}) });
  }
  const [first, second] = terms;
  const idOf = (operand: unknown) => Number(/^(\d+)(?:-|$)/.exec(String(operand))?.[1] ?? NaN);
  const channel = first && ["channel", "stream"].includes(first.operator) && !first.negated ? idOf(first.operand) : NaN;
  if (terms.length === 1 && Number.isInteger(channel)) return { kind: "channel", channelId: channel };
  if (terms.length === 2 && Number.isInteger(channel) && ["topic", "subject"].includes(second!.operator) && !second!.negated) {
    return { kind: "topic", channelId: channel, topic: String(second!.operand) };
  }
  if (terms.length === 1 && first!.operator === "is" && !first!.negated) {
    if (first!.operand === "mentioned") return { kind: "mentioned" };
    if (first!.operand === "starred") return { kind: "starred" };
    if (first!.operand === "dm" || first!.operand === "private") return { kind: "all-dms" };
  }
  if (terms.length === 1 && ["dm", "pm-with"].includes(first!.operator) && !first!.negated) {
    const ids = String(first!.operand).replace(/-.*$/, "").split(",").map(Number);
    if (ids.every((n) => Number.isInteger(n) && n > 0)) return { kind: "dm", userIds: dmParticipants(ids, selfId) };
  }
  return searchNarrow(terms);
}
