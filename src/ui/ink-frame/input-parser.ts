/**
 * Ink's input parser, replaced by termchat's (scripts/ink-patch.mjs swaps it in under Ink's
 * App). Ink 6.8's parser knows CSI and SS3 sequences only: the terminal's answers to our
 * questions (an OSC background colour, a DCS version string, an APC graphics reply) were cut
 * into an Alt key and text typed into the app. This one also knows
 * - whole string sequences: OSC, DCS, APC, PM and SOS, ended by ST (ESC \) or BEL;
 * - the CSI reports terminals send back: device attributes, mode reports, window and cell
 *   sizes, status reports;
 * and hands them to the terminal's answer channel (../terminal/answers.ts), never to a key
 * handler. Mouse reports (SGR `CSI < b ; x ; y M/m`, which termchat asks for when the reader
 * turns the mouse on) are cut out whole, a report split over reads joined, and passed on in
 * their place among the keys, for the keypress bus to hand to the mouse (../terminal/mouse.ts);
 * the legacy forms (X10's `CSI M` and three bytes, urxvt's `CSI b ; x ; y M`), never asked
 * for, are dropped whole rather than typed. Keys are cut as Ink cuts them.
 *
 * What arrives in pieces is joined: an unfinished sequence waits for its end, never longer than
 * a bound, after which its bytes count as the keys they were (Escape, then text). A lone ESC
 * is the Escape key, passed on at the next turn of the event loop as Ink does, except while the
 * terminal still owes answers: then it waits a little in case the rest of an answer follows.
 * Keys typed between answers keep their order, and no byte is ever dropped but an answer's.
 */
import { answersOwed, deliverTerminalAnswer } from "../terminal/answers.js";

const ESC = "\x1b";
/**
 * How long a lone ESC waits for the rest of an answer while answers are owed (only then: the
 * Escape key waits this long only while the terminal has not yet given its last answer). An
 * answer split over a slow link or read on a busy machine has gaps beyond its sender's own: at
 * 50 ms, one sent a byte per 40 ms came apart when a gap slipped by 10 ms more, and its `?`
 * acted as a key (the key help opened).
 */
export const ESC_WAIT_MS = 150;
/**
 * How long an unfinished sequence waits for its end before its bytes count as keys. A key
 * arrives whole in one read; an answer may come a byte at a time over a slow link, so while
 * what waits still reads like the start of an answer, the wait starts again with each byte that
 * continues it, up to SEQUENCE_MAX_MS in all.
 */
export const SEQUENCE_WAIT_MS = 300;
export const SEQUENCE_MAX_MS = 5000;
/** The beginnings of the answers terminals send: CSI reports (and SGR mouse reports), OSC with its number, XTVERSION/DECRQSS/XTGETTCAP, kitty's APC. */
const ANSWER_START = /^\x1b(?:\[[?>=<]?[\d;:]*\$?|\](?:\d+(?:;[^\x07\x1b]*)?)?|P(?:>(?:\|[^\x07\x1b]*)?|[01](?:[$+](?:r[^\x07\x1b]*)?)?)?|_(?:G[^\x07\x1b]*)?)\x1b?$/;
/** A string sequence longer than this is no answer of a terminal's (ours are short). */
const STRING_LIMIT = 4096;
/** ESC ] OSC, ESC P DCS, ESC _ APC, ESC ^ PM, ESC X SOS: strings up to ST or BEL. */
const STRING_OPENERS: ReadonlySet<string> = new Set(["]", "P", "_", "^", "X"]);

/**
 * CSI sequences only a terminal sends, never a key: device attributes (`CSI ? … c`, `CSI > … c`),
 * mode reports (`CSI ? 2026 ; 2 $ y`), window reports (`CSI 4 ; h ; w t`, `CSI 6 ; h ; w t`),
 * status reports (`… n`), the kitty keyboard flags (`CSI ? … u`), the extended cursor position
 * (`CSI ? r ; c R`) and terminal parameters (`… x`). A plain cursor position report
 * (`CSI r ; c R`) reads like a modified F3 key, so termchat never asks for one.
 */
const REPORT = /^\x1b\[(?:[?>=][\d;:]*c|\??[\d;]*\$y|[\d;]*t|\??[\d;]*n|\?[\d;]*u|\?[\d;]*R|[\d;]*x)$/;

/** A mouse report cut short: dropped when its wait is over, never typed as text. */
const UNFINISHED_MOUSE = /^\x1b\[(?:<[\d;]*|M[^]{0,2})$/u;
/** urxvt's mouse report (mode 1015): three numbers and M, which no key sends. */
const URXVT_MOUSE = /^\x1b\[\d+;\d+;\d+M$/;

type Found = { kind: "key" | "answer" | "dropped"; text: string; end: number } | { kind: "pending" } | { kind: "none" };

const PENDING: Found = { kind: "pending" };
const NONE: Found = { kind: "none" };

const isParameter = (c: number) => c >= 0x30 && c <= 0x3f;
const isIntermediate = (c: number) => c >= 0x20 && c <= 0x2f;
const isFinal = (c: number) => c >= 0x40 && c <= 0x7e;

/** X10's mouse report from `start`: ESC [ M and three characters (button, column, row), whatever they are. */
function x10MouseAt(input: string, start: number): Found {
  let end = start + 3;
  for (let n = 0; n < 3; n++) {
    const code = input.codePointAt(end);
    if (code === undefined) return PENDING;
    end += code > 0xffff ? 2 : 1;
  }
  return { kind: "dropped", text: input.slice(start, end), end };
}

/** A CSI sequence from `start` (`prefix` ESCs before its `[`), as Ink reads it. */
function csiAt(input: string, start: number, prefix: number): Found {
  const first = start + prefix + 1;
  if (prefix === 1 && input[first] === "M") return x10MouseAt(input, start);
  for (let i = first; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (isParameter(c) || isIntermediate(c)) continue;
    if (c === 0x5b && i === first) continue; // the Linux console's function keys: ESC [ [ A
    if (!isFinal(c)) return NONE;
    const text = input.slice(start, i + 1);
    if (prefix === 1 && c === 0x4d && URXVT_MOUSE.test(text)) return { kind: "dropped", text, end: i + 1 };
    return { kind: prefix === 1 && REPORT.test(text) ? "answer" : "key", text, end: i + 1 };
  }
  return PENDING;
}

function ss3At(input: string, start: number, prefix: number): Found {
  const end = start + prefix + 2;
  if (end > input.length) return PENDING;
  if (!isFinal(input.charCodeAt(end - 1))) return NONE;
  return { kind: "key", text: input.slice(start, end), end };
}

/** A string sequence from `start`: up to BEL or ST; any other control character means it is none. */
function stringAt(input: string, start: number): Found {
  for (let i = start + 2; i < input.length && i - start <= STRING_LIMIT; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x07) return { kind: "answer", text: input.slice(start, i + 1), end: i + 1 };
    if (c === 0x1b) {
      if (i + 1 === input.length) return PENDING;
      return input[i + 1] === "\\" ? { kind: "answer", text: input.slice(start, i + 2), end: i + 2 } : NONE;
    }
    if (c < 0x20 || c === 0x7f) return NONE;
  }
  return input.length - start > STRING_LIMIT ? NONE : PENDING;
}

function sequenceAt(input: string, start: number): Found {
  const next = input[start + 1];
  if (next === undefined) return PENDING;
  if (next === "[") return csiAt(input, start, 1);
  if (next === "O") return ss3At(input, start, 1);
  if (STRING_OPENERS.has(next)) return stringAt(input, start);
  if (next === ESC) {
    // Alt with a key that is itself a sequence (ESC ESC [ A), as Ink reads it.
    const third = input[start + 2];
    if (third === undefined) return PENDING;
    if (third === "[") return csiAt(input, start, 2);
    if (third === "O") return ss3At(input, start, 2);
  }
  return NONE;
}

/** ESC and what follows it as one key: ESC ESC, or Alt and one character (Ink's reading). */
function escapedKey(input: string, start: number): { text: string; end: number } {
  if (input[start + 1] === ESC) return { text: ESC + ESC, end: start + 2 };
  const code = input.codePointAt(start + 1);
  const end = start + 1 + (code !== undefined && code > 0xffff ? 2 : 1);
  return { text: input.slice(start, Math.min(end, input.length)), end };
}

/** The keys in `input` (mouse reports among them), the answers handed to `onAnswer`, and the unfinished sequence at its end. */
export function parseInput(input: string, onAnswer: (answer: string) => void): { keys: string[]; pending: string } {
  const keys: string[] = [];
  let i = 0;
  while (i < input.length) {
    const at = input.indexOf(ESC, i);
    if (at === -1) {
      keys.push(input.slice(i));
      break;
    }
    if (at > i) keys.push(input.slice(i, at));
    const found = sequenceAt(input, at);
    if (found.kind === "pending") return { keys, pending: input.slice(at) };
    if (found.kind === "none") {
      const key = escapedKey(input, at);
      keys.push(key.text);
      i = key.end;
      continue;
    }
    if (found.kind === "answer") onAnswer(found.text);
    else if (found.kind === "key") keys.push(found.text);
    i = found.end;
  }
  return { keys, pending: "" };
}

export interface InputParserOptions {
  now?: () => number;
  onAnswer?: (answer: string) => void;
  answersOwed?: (now: number) => boolean;
}

export interface InputParser {
  /** The keys in `chunk` (with what waited before it); answers go to the answer channel. */
  push(chunk: string): string[];
  /** Whether an unfinished sequence (or a lone ESC) waits. Ink's name. */
  hasPendingEscape(): boolean;
  /** Milliseconds until what waits is to be passed on (0: at the next turn of the event loop). */
  pendingWait(): number;
  /** What waited, as keys, once its wait is over (else nothing yet). */
  flushPending(): string[];
  reset(): void;
}

export function createInputParser(options: InputParserOptions = {}): InputParser {
  const now = options.now ?? (() => performance.now());
  const onAnswer = options.onAnswer ?? deliverTerminalAnswer;
  const owed = options.answersOwed ?? answersOwed;
  let pending = "";
  /** When the first byte of what waits arrived, and the last one. */
  let since = 0;
  let last = 0;

  const take = (input: string): string[] => {
    const continued = pending !== "";
    const result = parseInput(input, onAnswer);
    last = now();
    // Still the same unfinished sequence (it began at the start of the input): its wait goes on.
    if (!(continued && result.pending.length === input.length)) since = last;
    pending = result.pending;
    return result.keys;
  };

  const pendingWait = (): number => {
    if (pending === "") return 0;
    const t = now();
    if (pending === ESC || pending === ESC + ESC) return owed(t) ? Math.max(0, since + ESC_WAIT_MS - t) : 0;
    const until = ANSWER_START.test(pending) ? Math.min(last + SEQUENCE_WAIT_MS, since + SEQUENCE_MAX_MS) : since + SEQUENCE_WAIT_MS;
    return Math.max(0, until - t);
  };

  return {
    push: (chunk) => take(pending + chunk),
    hasPendingEscape: () => pending !== "",
    pendingWait,
    flushPending() {
      if (pending === "" || pendingWait() > 0) return [];
      const waited = pending;
      pending = "";
      if (waited === ESC || waited === ESC + ESC) return [waited];
      // A mouse report that never finished (a link cut mid-report) is no text the reader typed.
      if (UNFINISHED_MOUSE.test(waited)) return [];
      // Never finished: ESC and the character after it are a key, the rest is read again.
      const first = escapedKey(waited, 0);
      return [first.text, ...take(waited.slice(first.end))];
    },
    reset() {
      pending = "";
    },
  };
}

/** A scheduled flush of what waits: at the next turn of the event loop, or after the parser's wait. */
export interface InputFlush {
  cancel(): void;
}

/** Ink's App calls this (patched in) where it called setImmediate. */
export function scheduleInputFlush(parser: Pick<InputParser, "pendingWait">, flush: () => void): InputFlush {
  const wait = parser.pendingWait();
  if (wait <= 0) {
    const immediate = setImmediate(flush);
    return { cancel: () => clearImmediate(immediate) };
  }
  // When the wait is over, what the terminal sent meanwhile is read first: after a stalled event
  // loop the timer runs before the input is polled, and the rest of an answer may be waiting
  // there. An immediate runs after that poll (whose read cancels this flush, and schedules anew).
  let immediate: ReturnType<typeof setImmediate> | undefined;
  const timer = setTimeout(() => (immediate = setImmediate(flush)), Math.ceil(wait));
  return {
    cancel: () => {
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    },
  };
}

export function cancelInputFlush(flush: InputFlush | undefined): void {
  flush?.cancel();
}
