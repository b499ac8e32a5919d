/** Checks the register's records a batch per turn once the screen is up; malformed ones become an error notice. */
import { useEffect } from "react";
import type { Store } from "../../model/store.js";
import { checkRecordsInTurns } from "../../sync/screen/record-checks.js";

export function useRecordChecks(store: Store | undefined, onMalformed: (text: string) => void): void {
  useEffect(() => {
    if (!store) return;
    return checkRecordsInTurns(store, { onMalformed });
  }, [store, onMalformed]);
}
