/**
 * Acts on moves of messages as the account tells them (ui/move-follow.ts
 * decides): the view follows the topic it was showing, a compose box writing
 * there is pointed at the new place (its text kept, and journaled there), and
 * the status line says where messages went. Moves the user makes come back
 * the same way, so a move saved while offline is followed once it is made.
 */
import { useEffect, type RefObject } from "react";
import { draftKey, type AccountHandle, type SendTarget } from "../../sync/account-handle.js";
import { moveOutcome } from "../move-follow.js";
import { currentNarrow, selectionOf, type UiAction, type UiState } from "../ui-state.js";

export function useMoveFollow(
  account: AccountHandle,
  uiRef: RefObject<UiState>,
  dispatch: (a: UiAction) => void,
  /** Opens the compose box on another conversation with this text (see useCompose's open). */
  recompose: (target: SendTarget, text: string) => void,
  /** The compose box's text now. */
  composeText: () => string,
): void {
  useEffect(
    () =>
      account.subscribe((c) => {
        if (c.kind !== "moved") return;
        const ui = uiRef.current;
        const narrow = currentNarrow(ui);
        const target = ui.compose && !ui.compose.editing && ui.compose.target.type === "stream" ? ui.compose.target : undefined;
        const outcome = moveOutcome(c.store, { narrow, selected: narrow ? selectionOf(ui, narrow).id : undefined, composing: target }, c.move);
        if (outcome.retarget && target) {
          const text = composeText();
          const to: SendTarget = { type: "stream", ...outcome.retarget };
          // The text goes with the box to the new topic; the old topic keeps no copy of it.
          account.actions.deleteLocalDraft(draftKey(target));
          recompose(to, text);
        }
        if (outcome.follow) dispatch({ type: "open", narrow: outcome.follow.narrow, select: outcome.follow.select });
        if (outcome.notice) dispatch({ type: "notice", text: outcome.notice });
      }),
    // The callbacks read the App's refs when a move comes, so the first ones serve for good.
    [account],
  );
}
