/**
 * The terminal's answers to our questions come back on the key input. Ink's input parser (the
 * patched one, ../ink-frame/input-parser.ts) recognises them and hands them here, never to a key
 * handler; the terminal probe (probe.ts) listens. Terminal-wide state: there is one terminal.
 */
type Listener = (answer: string) => void;

const listeners = new Set<Listener>();
/** Until when (performance.now()) answers are owed: the parser may wait a little for a split one. */
let owedUntil = 0;

/** Hands an answer (the whole sequence, ESC included) to whoever listens; unheard answers are dropped. */
export function deliverTerminalAnswer(answer: string): void {
  for (const l of [...listeners]) l(answer);
}

/** Called with each answer the terminal sends; returns the unsubscribe. */
export function onTerminalAnswer(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Questions went out: answers are owed for `forMs` at most (or until `answersSettled`). */
export function expectAnswers(forMs: number, now = performance.now()): void {
  owedUntil = Math.max(owedUntil, now + forMs);
}

/** The last answer arrived (the one every terminal gives): nothing more is owed. */
export function answersSettled(): void {
  owedUntil = 0;
}

export function answersOwed(now = performance.now()): boolean {
  return now < owedUntil;
}

/** For tests: nobody listens, nothing is owed. */
export function resetTerminalAnswers(): void {
  listeners.clear();
  owedUntil = 0;
}
