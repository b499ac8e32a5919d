/**
 * The kinds of event (`type` or `type/op`) a server sent that this client does not know, or of
 * a known kind in a shape it cannot read: ignored by the model, remembered here (a bounded
 * number: a server could invent any) so the UI can say so once. A newer server is not a failure.
 */
import type { ServerEvent } from "../api/schemas/events.js";

/** How many kinds are remembered. */
export const UNFAMILIAR_KINDS_KEPT = 20;

/** An unknown event's kind, `type` or `type/op`, each part cut to 60 characters. */
function kindOf(raw: Record<string, unknown>): string {
  const type = typeof raw.type === "string" ? raw.type.slice(0, 60) : "?";
  return typeof raw.op === "string" ? `${type}/${raw.op.slice(0, 60)}` : type;
}

export class UnfamiliarKinds {
  readonly kinds = new Set<string>();
  private readonly listeners = new Set<(kinds: ReadonlySet<string>) => void>();

  /** Called when a batch brought a kind not seen before. */
  on(fn: (kinds: ReadonlySet<string>) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  note(events: readonly ServerEvent[]): void {
    let added = false;
    for (const e of events) {
      if (e.type !== "unknown" || this.kinds.size >= UNFAMILIAR_KINDS_KEPT) continue;
      const kind = kindOf(e.raw);
      if (this.kinds.has(kind)) continue;
      this.kinds.add(kind);
      added = true;
    }
    if (added) for (const fn of this.listeners) fn(this.kinds);
  }
}
