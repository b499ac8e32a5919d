/**
 * The "Read by" part of message info: who has read the message, asked of the
 * server when the info opens. Where receipts cannot be shown — the organization turned them off,
 * or the server is too old — one line says so.
 */
import { useEffect, useState } from "react";
import type { Store } from "../../model/store.js";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { AccountHandle } from "../../sync/account-handle.js";

export interface ReceiptLine {
  text: string;
  kind?: "heading" | "dim";
}

type Receipts = { ids: number[] } | { error: string; unavailable: boolean } | undefined;

export function receiptLines(store: Store, receipts: Receipts): ReceiptLine[] {
  const out: ReceiptLine[] = [{ text: "Read by", kind: "heading" }];
  if (!receipts) return [...out, { text: t("  Loading…"), kind: "dim" }];
  if ("error" in receipts) return [...out, { text: `  ${receipts.unavailable ? "" : "Could not load: "}${sanitizeInline(receipts.error)}`, kind: "dim" }];
  if (receipts.ids.length === 0) return [...out, { text: "  Nobody yet.", kind: "dim" }];
  const names = receipts.ids.map((id) => (id === store.selfId ? "you" : sanitizeInline(store.userName(id)))).sort((a, b) => a.localeCompare(b));
  return [...out, { text: `  ${names.length} ${names.length === 1 ? "person" : "people"}: ${names.join(", ")}` }];
}

export function useReadReceipts(account: AccountHandle, store: Store, messageId: number): ReceiptLine[] {
  const [receipts, setReceipts] = useState<Receipts>(undefined);
  useEffect(() => {
    let live = true;
    void account.actions.readReceipts(messageId).then(
      (r) => live && setReceipts(r.ok ? { ids: r.value } : { error: r.error.message, unavailable: r.error.code === "READ_RECEIPTS_UNAVAILABLE" }),
    );
    return () => {
      live = false;
    };
  }, [account, messageId]);
  return receiptLines(store, receipts);
}
