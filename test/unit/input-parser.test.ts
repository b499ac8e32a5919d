/**
 * The patched Ink's input parser (src/ui/ink-frame/input-parser.ts): the terminal's answers to
 * the probe (OSC, DCS, APC strings, CSI reports) never reach the keys, however the bytes are
 * cut into reads; keys typed between them arrive whole and in order; an unfinished sequence
 * waits a bounded time, then counts as the keys it was; a lone Esc is still a key.
 */
import { StringDecoder } from "node:string_decoder";
import { describe, expect, it } from "vitest";
import { createInputParser, ESC_WAIT_MS, parseInput, SEQUENCE_WAIT_MS } from "../../src/ui/ink-frame/input-parser.js";
import { QUERIES } from "../../src/ui/terminal/probe.js";
import { answersTo } from "../fixtures/terminal-answers.js";
import { PROFILES } from "../fixtures/terminal-profiles.js";

const ANSWERS = [
  "\x1b]11;rgb:ffff/ffff/ffff\x1b\\", // OSC 11, ended by ST
  "\x1b]11;rgb:0000/0000/0000\x07", // OSC 11, ended by BEL
  "\x1bP>|XTerm(390)\x1b\\", // DCS XTVERSION
  "\x1b_Gi=31;OK\x1b\\", // APC kitty graphics
  "\x1b^private\x1b\\", // PM
  "\x1bXstart of string\x1b\\", // SOS
  "\x1b[?64;1;2;4;6;9;15;16;17;18;21;22c", // DA1
  "\x1b[?2026;2$y", // DECRPM
  "\x1b[4;953;1666t", // window pixels
  "\x1b[6;20;9t", // cell pixels
  "\x1b[?62;52;c", // DA1 with an empty last attribute (kitty)
];
const KEYS = ["j", "\x1b[A", "é", "\x1bOP", "🎉", "\x1b[200~", "pasted", "\x1b[201~", "\x1bx", "\x1b[1;5C", "Q", "\r", "\x7f"];

/** The mixed stream: a key, an answer, a key… */
const STREAM = KEYS.map((k, i) => k + (ANSWERS[i] ?? "")).join("");

/** Keys as the user pressed them: a sequence whole, text one character at a time. */
function presses(keys: string[]): string[] {
  return keys.flatMap((k) => (k.startsWith("\x1b") ? [k] : [...k]));
}

const BYTES = Buffer.from(STREAM);

/** The stream's bytes cut at `cuts`, decoded as Ink's stdin decodes them (UTF-8, never half a character). */
function readsCutAt(...cuts: number[]): string[] {
  const decoder = new StringDecoder("utf8");
  const edges = [0, ...cuts, BYTES.length];
  return edges.slice(1).map((end, i) => decoder.write(BYTES.subarray(edges[i], end)));
}

function run(chunks: string[]): { keys: string[]; answers: string[] } {
  const answers: string[] = [];
  const parser = createInputParser({ onAnswer: (a) => answers.push(a), answersOwed: () => true, now: () => 0 });
  const keys = chunks.flatMap((c) => parser.push(c));
  expect(parser.hasPendingEscape()).toBe(false);
  return { keys, answers };
}

describe("the input parser", () => {
  it("takes every answer out of a mixed stream read at once, and keeps every key", () => {
    const { keys, answers } = run([STREAM]);
    expect(answers).toEqual(ANSWERS);
    expect(presses(keys)).toEqual(presses(KEYS));
  });

  it("does the same however the stream is cut in two, at every byte", () => {
    const whole = { keys: presses(KEYS), answers: ANSWERS };
    for (let cut = 1; cut < BYTES.length; cut++) {
      const r = run(readsCutAt(cut));
      expect({ keys: presses(r.keys), answers: r.answers }, `cut at ${cut}`).toEqual(whole);
    }
  });

  it("and cut in three, at pairs of bytes all along it, and one byte at a time", () => {
    const whole = { keys: presses(KEYS), answers: ANSWERS };
    for (let a = 1; a < BYTES.length; a += 3) {
      for (let b = a + 1; b < BYTES.length; b += 2) {
        const r = run(readsCutAt(a, b));
        expect({ keys: presses(r.keys), answers: r.answers }, `cuts at ${a}, ${b}`).toEqual(whole);
      }
    }
    const r = run(readsCutAt(...Array.from({ length: BYTES.length - 1 }, (_, i) => i + 1)));
    expect({ keys: presses(r.keys), answers: r.answers }).toEqual(whole);
  });

  it("reads every answer of every terminal profile to the probe's questions as an answer", () => {
    const questions = Object.values(QUERIES).join("");
    for (const p of Object.values(PROFILES)) {
      for (const answer of answersTo(p, questions, { cols: 100, rows: 30, cursor: { x: 0, y: 0 } })) {
        expect(run([`a${answer}b`]), `${p.name}: ${JSON.stringify(answer)}`).toEqual({ keys: ["a", "b"], answers: [answer] });
      }
    }
  });

  it("leaves keys that end like reports alone: a cursor report is never asked, so CSI r;c R stays a key (modified F3)", () => {
    expect(run(["\x1b[1;2R\x1b[3~\x1b[Z\x1b[97;5u"]).keys).toEqual(["\x1b[1;2R", "\x1b[3~", "\x1b[Z", "\x1b[97;5u"]);
  });
});

describe("what waits for the rest of a sequence", () => {
  function clocked(owed: boolean) {
    let t = 0;
    const answers: string[] = [];
    const parser = createInputParser({ onAnswer: (a) => answers.push(a), answersOwed: () => owed, now: () => t });
    return { parser, answers, advance: (ms: number) => (t += ms) };
  }

  it("a lone Esc is a key at the next turn when nothing is owed", () => {
    const { parser } = clocked(false);
    expect(parser.push("\x1b")).toEqual([]);
    expect(parser.pendingWait()).toBe(0);
    expect(parser.flushPending()).toEqual(["\x1b"]);
  });

  it("while answers are owed, a lone ESC waits a little: the rest of an answer joins it, else it is Esc", () => {
    const a = clocked(true);
    expect(a.parser.push("\x1b")).toEqual([]);
    expect(a.parser.pendingWait()).toBe(ESC_WAIT_MS);
    a.advance(10);
    expect(a.parser.flushPending()).toEqual([]);
    expect(a.parser.push("]11;rgb:ffff/ffff/ffff\x1b\\j")).toEqual(["j"]);
    expect(a.answers).toEqual(["\x1b]11;rgb:ffff/ffff/ffff\x1b\\"]);

    const b = clocked(true);
    b.parser.push("\x1b");
    b.advance(ESC_WAIT_MS);
    expect(b.parser.pendingWait()).toBe(0);
    expect(b.parser.flushPending()).toEqual(["\x1b"]);
  });

  it("while answers are owed, an answer whose ESC came 100 ms before the rest (a slow link, a busy machine) is still no key", () => {
    const a = clocked(true);
    expect(a.parser.push("\x1b")).toEqual([]);
    a.advance(100);
    expect(a.parser.flushPending()).toEqual([]);
    expect(a.parser.push("[?2026;0$y")).toEqual([]);
    expect(a.answers).toEqual(["\x1b[?2026;0$y"]);
  });

  it("an answer arriving in pieces over time is joined, and keys typed after it wait for it, in order", () => {
    const { parser, answers, advance } = clocked(false);
    expect(parser.push("a\x1bP>|XTe")).toEqual(["a"]);
    advance(100);
    expect(parser.flushPending()).toEqual([]);
    expect(parser.push("rm(390)\x1b")).toEqual([]);
    advance(100);
    expect(parser.push("\\bc")).toEqual(["bc"]);
    expect(answers).toEqual(["\x1bP>|XTerm(390)\x1b\\"]);
  });

  it("a sequence that never ends counts as the keys it was once its wait is over (Esc then text), none lost", () => {
    const { parser, answers, advance } = clocked(false);
    expect(parser.push("\x1bPlans")).toEqual([]);
    expect(parser.pendingWait()).toBe(SEQUENCE_WAIT_MS);
    advance(SEQUENCE_WAIT_MS - 1);
    expect(parser.flushPending()).toEqual([]);
    expect(parser.push(" for")).toEqual([]);
    advance(1);
    expect(parser.flushPending()).toEqual(["\x1bP", "lans for"]);
    expect(answers).toEqual([]);
    expect(parser.hasPendingEscape()).toBe(false);
  });

  it("an answer that arrives a byte at a time, slower than the wait in all, is still an answer", () => {
    const { parser, answers, advance } = clocked(true);
    const answer = "\x1b[?63;1;2;4;6;9;15;16;17;18;21;22c";
    for (const byte of answer) {
      expect(parser.push(byte)).toEqual([]);
      advance(40);
      expect(parser.flushPending()).toEqual([]);
    }
    expect(answers).toEqual([answer]);
    expect(parser.hasPendingEscape()).toBe(false);
  });

  it("an answer's beginning that stops coming counts as keys after the wait since its last byte", () => {
    const { parser, answers, advance } = clocked(false);
    expect(parser.push("\x1b]11;rgb:")).toEqual([]);
    advance(SEQUENCE_WAIT_MS - 1);
    expect(parser.push("ff")).toEqual([]);
    advance(SEQUENCE_WAIT_MS - 1);
    expect(parser.flushPending()).toEqual([]);
    advance(1);
    expect(parser.flushPending()).toEqual(["\x1b]", "11;rgb:ff"]);
    expect(answers).toEqual([]);
  });

  it("a string broken by a key that no answer contains (Enter, Backspace) is keys at once", () => {
    expect(parseInput("\x1b]ab\rcd", () => undefined)).toEqual({ keys: ["\x1b]", "ab\rcd"], pending: "" });
    expect(parseInput("\x1bPx\x1b[A", () => undefined)).toEqual({ keys: ["\x1bP", "x", "\x1b[A"], pending: "" });
  });

  it("an endless string is cut off: no answer is that long", () => {
    const answers: string[] = [];
    const { keys, pending } = parseInput(`\x1b]${"x".repeat(5000)}`, (a) => answers.push(a));
    expect(pending).toBe("");
    expect(answers).toEqual([]);
    expect(keys.join("")).toBe(`\x1b]${"x".repeat(5000)}`);
  });
});
