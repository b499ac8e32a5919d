import { useEffect } from "react";
import type { UpdateMachine } from "../../sync/update-machine.js";
import type { UiAction } from "../ui-state.js";

/**
 * An answer the client gave up itself (larger than it takes once decompressed, or trickling in
 * too slowly) is said in a notice that stays until the next key: the status line says
 * "reconnecting…" only until the session is back, which may be a moment.
 */
export function useAbandonedNotice(machine: UpdateMachine, dispatch: (a: UiAction) => void): void {
  useEffect(
    () =>
      machine.onState((s) => {
        if (s.kind === "reconnecting" && s.abandoned) dispatch({ type: "notice", text: s.error, kind: "error" });
      }),
    [machine, dispatch],
  );
}
