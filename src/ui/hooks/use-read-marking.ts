/** Marks the unread messages shown in the pane read, once the reader is in the pane (never in search results). */
import { useEffect } from "react";
import type { Narrow } from "../../model/narrow.js";
import type { Commands } from "../../sync/commands.js";
import { idsToMarkRead, type PaneFocus } from "../../sync/screen/pane-upkeep.js";

export function useReadMarking(commands: Pick<Commands, "markRead">, focus: PaneFocus, narrow: Narrow | undefined, shownUnread: Set<number>): void {
  useEffect(() => {
    const ids = idsToMarkRead({ focus, narrow, shownUnread });
    if (ids.length) commands.markRead(ids);
  }, [shownUnread, commands, focus, narrow]);
}
