/** Where a new message goes, asked with the recipient picker: people (x), or a channel and then its topic (c outside a channel). */
import { dmParticipants } from "../../model/narrow.js";
import type { ActionContext } from "../app-context.js";
import { PickRecipient } from "./PickRecipient.js";
import { openNewTopic } from "./TopicPrompt.js";

/** x: a new direct message to the people picked. */
export function openNewDm(ctx: ActionContext): void {
  ctx.openPopup((close) => (
    <PickRecipient
      mode="people"
      title="New direct message"
      close={close}
      onPick={(ids, now) => {
        const userIds = dmParticipants(ids, now.store.selfId);
        now.openNarrow({ kind: "dm", userIds }, { focus: "messages" });
        now.openCompose({ type: "direct", userIds });
      }}
    />
  ));
}

/** c outside a channel: which channel, then which topic. */
export function openPickChannel(ctx: ActionContext): void {
  ctx.openPopup((close) => (
    <PickRecipient mode="channel" title="New topic in which channel?" close={close} onPick={([id], now) => id !== undefined && openNewTopic(now, id)} />
  ));
}
