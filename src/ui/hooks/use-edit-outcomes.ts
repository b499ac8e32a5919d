/**
 * Edits kept by the outbox while the server could not be reached end later:
 * the status line says how (saved, or refused with the server's reason: the
 * text stays in the journal, and `e` on the message brings it back).
 */
import { useEffect } from "react";
import type { Outbox } from "../../sync/outbox.js";
import type { UiAction } from "../ui-state.js";

export function useEditOutcomes(outbox: Outbox, dispatch: (a: UiAction) => void): void {
  useEffect(
    () =>
      outbox.edits.onSettled((e, o) => {
        if (o.kind === "saved") dispatch({ type: "notice", text: "A kept edit was saved." });
        else if (o.kind === "failed") {
          const kept = e.params.content !== undefined ? " Your text is kept: press e on the message to try again." : "";
          dispatch({ type: "notice", text: `Edit not saved: ${o.error.replace(/\.?$/, ".")}${kept}`, kind: "error" });
        }
      }),
    [outbox, dispatch],
  );
}
