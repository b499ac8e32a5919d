/**
 * The palette's entry for when viewing messages marks them read: the
 * service's own setting (web_mark_read_on_scroll_policy), shared with its
 * other apps; the change reaches every client through its user_settings event.
 */
import { markReadPolicy, type MarkReadPolicy } from "../model/read-policy.js";
import type { ActionContext } from "./app-context.js";
import type { PaletteCommand } from "./palette-commands-context.js";
import { openForm } from "./popups/Form.js";

export const READ_POLICY_LABELS: Readonly<Record<MarkReadPolicy, string>> = {
  always: "always",
  conversations: "only in a topic or a direct message conversation",
  never: "never (M marks read)",
};
const POLICIES = Object.keys(READ_POLICY_LABELS) as MarkReadPolicy[];

export function readCommands(ctx: ActionContext): PaletteCommand[] {
  const now = markReadPolicy(ctx.store.personal.settings);
  return [
    {
      id: "read.policy",
      title: "Mark messages read as you view them…",
      detail: `now: ${READ_POLICY_LABELS[now]}`,
      run: (c) =>
        openForm(c, {
          title: "Mark messages read as you view them",
          subtitle: "Search results, mentions and starred messages never are.",
          fields: [{ kind: "choice", name: "policy", label: "When", initial: now, options: POLICIES.map((p) => ({ value: p, label: READ_POLICY_LABELS[p] })) }],
          onSubmit: (v) => {
            const picked = POLICIES.find((p) => p === v["policy"]) ?? now;
            c.attempt(() => c.account.actions.setMarkReadPolicy(picked), `Messages viewed are marked read: ${READ_POLICY_LABELS[picked]}`);
          },
        }),
    },
  ];
}
