/**
 * One status-line note, once per session, when the server sends kinds of event this
 * client does not know (a newer server): they are ignored, and the user learns why
 * something they see elsewhere is missing here.
 */
import { useEffect } from "react";
import type { UpdateMachine } from "../../sync/update-machine.js";
import type { UiAction } from "../ui-state.js";

export const UNFAMILIAR_NOTE = "This server sends things termchat does not know yet; they are not shown.";

export function useUnfamiliarNotice(machine: UpdateMachine, dispatch: (a: UiAction) => void): void {
  useEffect(() => {
    let shown = false;
    const show = () => {
      if (shown) return;
      shown = true;
      dispatch({ type: "notice", text: UNFAMILIAR_NOTE, kind: "info" });
    };
    if (machine.unfamiliar.size > 0) show();
    const off = machine.onUnfamiliar(show);
    return () => {
      off();
    };
  }, [machine, dispatch]);
}
