/**
 * Mouse reports in the key input (src/ui/ink-frame/input-parser.ts, src/ui/terminal/mouse.ts):
 * an SGR report comes out whole, in its place among the keys (the keypress bus hands it to the
 * mouse, never to a key handler: test/ui/mouse.test.tsx), however the bytes are cut into reads
 * and whatever keys come around it; legacy reports (never asked for) are dropped whole; a
 * report cut short is dropped once its wait is over, never typed into the compose box.
 */
import { StringDecoder } from "node:string_decoder";
import { describe, expect, it } from "vitest";
import { createInputParser, SEQUENCE_WAIT_MS } from "../../src/ui/ink-frame/input-parser.js";
import { isMouseReport, parseMouseReport } from "../../src/ui/terminal/mouse.js";

const CLICK = "\x1b[<0;12;5M";
const RELEASE = "\x1b[<0;12;5m";
const WHEEL_UP = "\x1b[<64;40;10M";
const WHEEL_DOWN = "\x1b[<65;40;10M";
const BIG = "\x1b[<2;300;120M"; // beyond X10's 223 columns: SGR has no limit
const KEYS = ["j", "\x1b[A", "é", "\x1bOP", "🎉", "\x1b[1;5C", "Q", "\r", "k"];
const REPORTS = [CLICK, RELEASE, WHEEL_UP, WHEEL_DOWN, BIG];
const STREAM = KEYS.map((k, i) => k + (REPORTS[i] ?? "")).join("");
/** What comes out: each key, and each report whole, in the order they were sent. */
const ALL = KEYS.flatMap((k, i) => [k, ...(REPORTS[i] ? [REPORTS[i]] : [])]);
const BYTES = Buffer.from(STREAM);

function presses(keys: string[]): string[] {
  return keys.flatMap((k) => (k.startsWith("\x1b") ? [k] : [...k]));
}

function run(chunks: string[]) {
  const answers: string[] = [];
  const parser = createInputParser({ onAnswer: (a) => answers.push(a), answersOwed: () => false, now: () => 0 });
  const keys = chunks.flatMap((c) => parser.push(c));
  expect(parser.hasPendingEscape()).toBe(false);
  return { keys: presses(keys), answers };
}

function readsCutAt(...cuts: number[]): string[] {
  const decoder = new StringDecoder("utf8");
  const edges = [0, ...cuts, BYTES.length];
  return edges.slice(1).map((end, i) => decoder.write(BYTES.subarray(edges[i], end)));
}

describe("mouse reports in the key input", () => {
  it("cuts SGR presses, releases and wheel steps out whole, in their place among the keys", () => {
    const { keys, answers } = run([STREAM]);
    expect(keys).toEqual(presses(ALL));
    expect(answers).toEqual([]);
    expect(keys.filter(isMouseReport)).toEqual(REPORTS);
  });

  it("joins a report split across reads, at every byte, and one byte at a time", () => {
    const whole = { keys: presses(ALL), answers: [] };
    for (let cut = 1; cut < BYTES.length; cut++) expect(run(readsCutAt(cut)), `cut at ${cut}`).toEqual(whole);
    expect(run(readsCutAt(...Array.from({ length: BYTES.length - 1 }, (_, i) => i + 1)))).toEqual(whole);
  });

  it("keeps waiting while a slow link brings a report a byte at a time, then drops one that never ends", () => {
    let t = 0;
    const parser = createInputParser({ answersOwed: () => false, now: () => t });
    // (A lone ESC is the Escape key at once: a report split right after it cannot be told from one.)
    for (const c of ["\x1b[", ..."<0;1"]) {
      expect(parser.push(c)).toEqual([]);
      t += SEQUENCE_WAIT_MS - 10;
      expect(parser.flushPending()).toEqual([]);
    }
    expect(parser.push("2;5M")).toEqual([CLICK]);

    expect(parser.push("\x1b[<0;3")).toEqual([]);
    t += SEQUENCE_WAIT_MS + 1;
    // Never the text "[<0;3" in the compose box.
    expect(parser.flushPending()).toEqual([]);
    expect(parser.hasPendingEscape()).toBe(false);
    expect(parser.push("x")).toEqual(["x"]);
  });

  it("drops legacy X10 and urxvt reports whole, even split, with no byte typed", () => {
    const x10 = "\x1b[M #!"; // left press at column 3, row 1
    const urxvt = "\x1b[32;12;5M";
    expect(run([`a${x10}b${urxvt}c`])).toEqual({ keys: ["a", "b", "c"], answers: [] });
    expect(run(["a\x1b[M", " #", "!b"])).toEqual({ keys: ["a", "b"], answers: [] });
    // Coordinates past 95 are bytes above 0x7f: whatever they decode to, three characters are the report.
    const far = "\x1b[M \u00ff\u00ff";
    expect(run([`${far}j`])).toEqual({ keys: ["j"], answers: [] });
    expect(parseMouseReport(x10)).toBeUndefined();
    expect(parseMouseReport(urxvt)).toBeUndefined();
  });

  it("leaves keys that look a little like reports alone", () => {
    // Shift-Tab, a modified arrow, Delete, kitty's keys: not mouse reports.
    expect(run(["\x1b[Z\x1b[1;2A\x1b[3~\x1b[97;5u"]).keys).toEqual(["\x1b[Z", "\x1b[1;2A", "\x1b[3~", "\x1b[97;5u"]);
  });
});

describe("reading a report", () => {
  it("names the button, press or release, the cell from 0, and the modifiers", () => {
    expect(parseMouseReport(CLICK)).toEqual({ button: "left", kind: "press", x: 11, y: 4, shift: false, alt: false, ctrl: false });
    expect(parseMouseReport(RELEASE)).toMatchObject({ button: "left", kind: "release", x: 11, y: 4 });
    expect(parseMouseReport(WHEEL_UP)).toMatchObject({ button: "wheelUp", kind: "press", x: 39, y: 9 });
    expect(parseMouseReport(WHEEL_DOWN)).toMatchObject({ button: "wheelDown", kind: "press" });
    expect(parseMouseReport(BIG)).toMatchObject({ button: "right", x: 299, y: 119 });
    expect(parseMouseReport("\x1b[<20;1;1M")).toMatchObject({ button: "left", shift: true, ctrl: true, alt: false });
    expect(parseMouseReport("\x1b[<32;5;5M")).toMatchObject({ button: "left", kind: "drag" });
    expect(parseMouseReport("\x1b[<128;5;5M")).toMatchObject({ button: "other" });
    expect(parseMouseReport("\x1b[<0;0;5M")).toBeUndefined();
    // As Ink's input hook passes it on, without its ESC.
    expect(parseMouseReport("[<65;3;4M")).toMatchObject({ button: "wheelDown", x: 2, y: 3 });
    expect(isMouseReport("[<0;1;1m")).toBe(true);
    expect(isMouseReport("[<0;1M")).toBe(false);
  });
});
