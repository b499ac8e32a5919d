/**
 * The test terminal's side of the terminal's conversation with the app: find the questions in
 * what the app writes (a stream, cut anywhere), and answer each as a given terminal would
 * (terminal-profiles.ts). Only 7-bit forms are read (ESC [, ESC ], ESC P, ESC _): the app
 * writes UTF-8, whose continuation bytes would read as 8-bit controls.
 */
import type { OscTerminator, TerminalProfile } from "./terminal-profiles.js";

export type Query =
  | { kind: "da1" }
  | { kind: "xtversion" }
  | { kind: "decrqm"; mode: number }
  | { kind: "window-report"; op: number }
  | { kind: "cursor-report" }
  | { kind: "osc-color"; code: number; terminator: "bel" | "st" }
  | { kind: "kitty"; keys: Record<string, string> };

/** What is written to the app, and the sequence it answers. */
export interface Exchange {
  query: Query;
  /** The sequence as the app wrote it (printable). */
  raw: string;
  answer: string | undefined;
}

const ESC = "\x1b";
const ST = `${ESC}\\`;
const BEL = "\x07";
/** A string sequence longer than this is not a question (kitty image data, say): only its start is kept. */
const KEEP = 256;

type State = "ground" | "esc" | "csi" | "osc" | "string";

/** Reads the app's output, chunk by chunk, and reports each complete control sequence it recognises as a question. */
export class QueryScanner {
  private state: State = "ground";
  private body = "";
  /** For string sequences: the introducer ("P", "_", "^", "X"); "]" for OSC. */
  private introducer = "";
  /** In OSC or a string: the ESC that may start the terminator was seen. */
  private escInString = false;

  constructor(private readonly onQuery: (query: Query, raw: string) => void) {}

  feed(chunk: string): void {
    for (const ch of chunk) this.step(ch);
  }

  private step(ch: string): void {
    switch (this.state) {
      case "ground":
        if (ch === ESC) this.state = "esc";
        return;
      case "esc":
        this.body = "";
        this.escInString = false;
        if (ch === "[") this.state = "csi";
        else if (ch === "]") [this.state, this.introducer] = ["osc", "]"];
        else if (ch === "P" || ch === "_" || ch === "^" || ch === "X") [this.state, this.introducer] = ["string", ch];
        else this.state = ch === ESC ? "esc" : "ground";
        return;
      case "csi": {
        const code = ch.charCodeAt(0);
        if (ch === ESC) this.state = "esc";
        else if (code >= 0x40 && code <= 0x7e) {
          this.state = "ground";
          this.csi(this.body, ch);
        } else if (code >= 0x20 && code <= 0x3f) this.body += ch;
        else if (code >= 0x20) this.state = "ground"; // not a CSI after all
        return;
      }
      case "osc":
      case "string":
        if (this.escInString) {
          this.escInString = false;
          if (ch === "\\") return this.endString("st");
          // ESC not followed by "\": the string was cut short; this ESC starts something new.
          this.state = "esc";
          return this.step(ch);
        }
        if (ch === ESC) this.escInString = true;
        else if (ch === BEL && this.state === "osc") this.endString("bel");
        else if (this.body.length < KEEP) this.body += ch;
    }
  }

  private endString(terminator: "bel" | "st"): void {
    this.state = "ground";
    const body = this.body;
    if (this.introducer === "]") {
      const m = /^(1[0-9]);\?$/.exec(body);
      if (m) this.onQuery({ kind: "osc-color", code: Number(m[1]), terminator }, `ESC ]${body}${terminator === "bel" ? " BEL" : " ST"}`);
    } else if (this.introducer === "_" && body.startsWith("G")) {
      const control = body.slice(1).split(";")[0] ?? "";
      const keys: Record<string, string> = {};
      for (const pair of control.split(",")) {
        const [k, v] = pair.split("=");
        if (k && v !== undefined) keys[k] = v;
      }
      this.onQuery({ kind: "kitty", keys }, `ESC _G${control}… ST`);
    }
  }

  private csi(params: string, final: string): void {
    const raw = `ESC [${params}${final}`;
    if (final === "c" && (params === "" || params === "0")) this.onQuery({ kind: "da1" }, raw);
    else if (final === "q" && (params === ">" || params === ">0")) this.onQuery({ kind: "xtversion" }, raw);
    else if (final === "p" && /^\?\d+\$$/.test(params)) this.onQuery({ kind: "decrqm", mode: Number(params.slice(1, -1)) }, raw);
    else if (final === "t" && /^(14|16|18)(;\d*)?$/.test(params)) this.onQuery({ kind: "window-report", op: Number(params.split(";")[0]) }, raw);
    else if (final === "n" && params === "6") this.onQuery({ kind: "cursor-report" }, raw);
  }
}

function oscEnd(style: OscTerminator | undefined, asked: "bel" | "st"): string {
  const end = style === "st" ? "st" : style === "bel" ? "bel" : asked;
  return end === "bel" ? BEL : ST;
}

/** The terminal's state an answer may depend on. */
export interface TerminalState {
  cols: number;
  rows: number;
  /** 0-based cursor position at the moment the question is read. */
  cursor: { x: number; y: number };
}

/** What `profile` answers to `query`; undefined when it stays silent. */
export function answerFor(profile: TerminalProfile, query: Query, state: TerminalState): string | undefined {
  switch (query.kind) {
    case "da1":
      return profile.da1 === undefined ? undefined : `${ESC}[${profile.da1}`;
    case "xtversion":
      return profile.xtversion === undefined ? undefined : `${ESC}P>|${profile.xtversion}${ST}`;
    case "decrqm":
      return profile.decrqm === undefined ? undefined : `${ESC}[?${query.mode};${profile.decrqm[query.mode] ?? 0}$y`;
    case "cursor-report":
      return profile.cursorReport ? `${ESC}[${state.cursor.y + 1};${state.cursor.x + 1}R` : undefined;
    case "window-report": {
      if (!profile.windowReports?.includes(query.op)) return undefined;
      const cell = profile.cellPx;
      if (query.op === 18) return `${ESC}[8;${state.rows};${state.cols}t`;
      if (!cell) return undefined;
      if (query.op === 16) return `${ESC}[6;${cell.height};${cell.width}t`;
      return `${ESC}[4;${cell.height * state.rows};${cell.width * state.cols}t`;
    }
    case "osc-color": {
      const colour = query.code === 10 ? profile.foreground : query.code === 11 ? profile.background : undefined;
      return colour === undefined ? undefined : `${ESC}]${query.code};${colour}${oscEnd(profile.oscTerminator, query.terminator)}`;
    }
    case "kitty": {
      if (!profile.kittyGraphics) return undefined;
      const { a = "t", i, I, q = "0" } = query.keys;
      // kitty answers only what names an image (i or I), and q=1 silences "OK", q=2 everything.
      if ((i === undefined && I === undefined) || q !== "0") return undefined;
      if (!["q", "t", "T", "p"].includes(a)) return undefined;
      const ids = [i === undefined ? "" : `i=${i}`, I === undefined ? "" : `I=${I}`].filter(Boolean).join(",");
      return `${ESC}_G${ids};OK${ST}`;
    }
  }
}

/** An answer made readable for reports and error messages. */
export function printable(s: string): string {
  return s.replace(/\x1b/g, "ESC ").replace(/\x07/g, " BEL");
}
