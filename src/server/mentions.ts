// Finds who a message mentions: `@**Full Name**`, `@**Full Name|id**`,
// wildcards (`@**all**`, `@**everyone**`, `@**channel**`, `@**stream**`,
// `@**topic**`) and user groups (`@*group*`). Silent mentions (`@_**…**`)
// notify nobody. Code spans and fenced code are ignored.

import type { State, User } from "./state.js";

export interface Mentions {
  userIds: Set<number>;
  channelWildcard: boolean;
  topicWildcard: boolean;
}

const CHANNEL_WILDCARDS = new Set(["all", "everyone", "channel", "stream"]);

export function stripCode(content: string): string {
  return content.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Resolves the text between `@**` and `**` to a user, or undefined. */
export function resolveMentionName(state: State, text: string): User | undefined {
  const bar = text.lastIndexOf("|");
  if (bar >= 0) {
    const id = Number(text.slice(bar + 1));
    const user = Number.isInteger(id) ? state.users.get(id) : undefined;
    return user?.isActive ? user : undefined;
  }
  return state.userByFullName(text);
}

export function findMentions(state: State, content: string): Mentions {
  const result: Mentions = { userIds: new Set(), channelWildcard: false, topicWildcard: false };
  const text = stripCode(content);
  for (const m of text.matchAll(/@(_?)\*\*([^*\n]+?)\*\*/g)) {
    if (m[1] === "_") continue;
    const name = m[2]!.trim();
    if (CHANNEL_WILDCARDS.has(name)) result.channelWildcard = true;
    else if (name === "topic") result.topicWildcard = true;
    else {
      const user = resolveMentionName(state, name);
      if (user) result.userIds.add(user.id);
    }
  }
  for (const m of text.matchAll(/@(_?)\*(?!\*)([^*\n]+?)\*/g)) {
    if (m[1] === "_") continue;
    const name = m[2]!.trim().toLowerCase();
    for (const group of state.groups.values()) {
      if (!group.isSystem && !group.deactivated && group.name.toLowerCase() === name) {
        for (const id of group.members) result.userIds.add(id);
      }
    }
  }
  return result;
}
