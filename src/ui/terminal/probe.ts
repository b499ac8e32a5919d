/**
 * One probe of the terminal, sent once Ink has the keyboard (raw mode on, first frame out; the
 * first frame never waits for the terminal). Its questions, in order:
 * - the kitty graphics query (answered only by terminals with the protocol);
 * - XTVERSION, `CSI > q` (the terminal's name: iTerm2, or a multiplexer such as tmux that
 *   answers for the terminal behind it, over SSH where TMUX is not set);
 * - OSC 11, the background colour (themes read it);
 * - the cell size in pixels, `CSI 16 t`, and the window's, `CSI 14 t` (images are scaled with it);
 * - DECRQM for synchronized output (mode 2026; frames are wrapped in it once known);
 * - primary device attributes, `CSI c`, last: every terminal answers it, so its answer means
 *   the others have come or never will; attribute 4 is sixel.
 * The answers arrive on the key input, where Ink's input parser hands them to the answer channel
 * (answers.ts); each is written into the terminal's record (capabilities.ts) as it comes. The
 * graphics are decided at the last answer, or when it has not come within the wait: half-blocks
 * until then. An answer that comes after the wait still counts.
 *
 * Inside tmux or screen (their variables, or TERM) the graphics question is not asked: images
 * would not survive the multiplexer's redraws. TERMCHAT_GRAPHICS forces the mode; with image
 * previews off it is "off". On the Linux console (TERM=linux) only the device attributes are
 * asked: it knows nothing else, and a sequence it does not know may show as text.
 */
import type { ColorDepth } from "../../render/images/half-blocks.js";
import { answersSettled, expectAnswers, onTerminalAnswer } from "./answers.js";
import { updateTerminalCapabilities, type GraphicsMode, type Rgb, type TerminalCapabilities } from "./capabilities.js";

export const QUERIES = {
  kittyGraphics: "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\",
  version: "\x1b[>q",
  background: "\x1b]11;?\x1b\\",
  cellSize: "\x1b[16t",
  windowSize: "\x1b[14t",
  synchronizedOutput: "\x1b[?2026$p",
  deviceAttributes: "\x1b[c",
} as const;

/** How long the graphics wait for the last answer; over SSH a round trip can take a while. */
export const PROBE_WAIT_MS = 1000;
/** How long answers are taken as owed (a lone ESC then waits a little for the rest of one). */
const OWED_MS = 5000;

type Env = Record<string, string | undefined>;

const MODES: ReadonlySet<GraphicsMode> = new Set<GraphicsMode>(["kitty", "iterm", "sixel", "halfblocks", "off"]);

export function colorDepth(env: Env): ColorDepth {
  return /^(truecolor|24bit)$/i.test(env.COLORTERM ?? "") ? "truecolor" : "256";
}

export function inMultiplexer(env: Env): boolean {
  return Boolean(env.TMUX) || Boolean(env.STY) || /^(tmux|screen)/.test(env.TERM ?? "");
}

/** What is known of the graphics without asking: forced, off, or half-blocks in a multiplexer. */
export function graphicsWithoutAsking(env: Env, images: boolean): GraphicsMode | undefined {
  if (!images) return "off";
  const forced = env.TERMCHAT_GRAPHICS?.toLowerCase() as GraphicsMode | undefined;
  if (forced && MODES.has(forced)) return forced;
  if (inMultiplexer(env) || env.TERM === "linux") return "halfblocks";
  return undefined;
}

/** The questions for this terminal, in the order they are written (device attributes last). */
export function probeQueries(env: Env, images: boolean): string[] {
  if (env.TERM === "linux") return [QUERIES.deviceAttributes];
  const graphics = graphicsWithoutAsking(env, images) === undefined ? [QUERIES.kittyGraphics] : [];
  return [...graphics, QUERIES.version, QUERIES.background, QUERIES.cellSize, QUERIES.windowSize, QUERIES.synchronizedOutput, QUERIES.deviceAttributes];
}

/** What the terminal said so far. */
export interface ProbeAnswers {
  kittyGraphics?: boolean;
  version?: string;
  background?: Rgb;
  cellPx?: { width: number; height: number };
  windowPx?: { width: number; height: number };
  synchronizedOutput?: boolean;
  /** The device attributes (DA1): its answer is the last. */
  attributes?: number[];
}

const ST = "(?:\\x1b\\\\|\\x07)";
const KITTY = new RegExp(`^\\x1b_Gi=31;([^\\x1b\\x07]*)${ST}$`);
const VERSION = new RegExp(`^\\x1bP>\\|([^\\x1b\\x07]*)${ST}$`);
const BACKGROUND = new RegExp(`^\\x1b\\]11;([^\\x1b\\x07]*)${ST}$`);
const SIZE = /^\x1b\[([46]);(\d+);(\d+)t$/;
const SYNC = /^\x1b\[\?2026;(\d)\$y$/;
const ATTRIBUTES = /^\x1b\[\?([\d;]*)c$/;

/** A colour as X11 writes it in OSC answers: rgb:R/G/B (1 to 4 hex digits each), rgba:…, or #RGB forms. */
export function parseColor(spec: string): Rgb | undefined {
  const scale = (hex: string) => Math.round((Number.parseInt(hex, 16) / (16 ** hex.length - 1)) * 255);
  const rgb = /^rgba?:([\da-f]{1,4})\/([\da-f]{1,4})\/([\da-f]{1,4})(?:\/[\da-f]{1,4})?$/i.exec(spec);
  if (rgb) return { r: scale(rgb[1]!), g: scale(rgb[2]!), b: scale(rgb[3]!) };
  const hash = /^#((?:[\da-f]{3}){1,4})$/i.exec(spec);
  if (!hash) return undefined;
  const n = hash[1]!.length / 3;
  const [r, g, b] = [0, 1, 2].map((i) => scale(hash[1]!.slice(i * n, (i + 1) * n)));
  return { r: r!, g: g!, b: b! };
}

/** Takes note of one answer; true when it was the last one (the device attributes). */
export function readAnswer(answer: string, into: ProbeAnswers): boolean {
  let m: RegExpExecArray | null;
  if ((m = KITTY.exec(answer))) into.kittyGraphics = m[1] === "OK";
  else if ((m = VERSION.exec(answer))) into.version = m[1];
  else if ((m = BACKGROUND.exec(answer))) into.background = parseColor(m[1]!) ?? into.background;
  else if ((m = SIZE.exec(answer))) {
    const size = { width: Number(m[3]), height: Number(m[2]) };
    if (size.width > 0 && size.height > 0) into[m[1] === "6" ? "cellPx" : "windowPx"] = size;
  } else if ((m = SYNC.exec(answer))) {
    // 1 set, 2 reset, 3 permanently set: the terminal has the mode; 0 unknown, 4 permanently reset: it has not.
    into.synchronizedOutput = ["1", "2", "3"].includes(m[1]!);
  } else if ((m = ATTRIBUTES.exec(answer))) {
    into.attributes = m[1]!.split(";").filter(Boolean).map(Number);
    return true;
  }
  return false;
}

/** The graphics the answers call for (when nothing decided them without asking). */
export function graphicsFrom(answers: ProbeAnswers, env: Env): GraphicsMode {
  // tmux or screen answering for the terminal behind them (over SSH, with TMUX unset here).
  if (/^(tmux|screen)\b/i.test(answers.version ?? "")) return "halfblocks";
  if (answers.kittyGraphics) return "kitty";
  if (/^iTerm2\b/i.test(answers.version ?? "") || env.TERM_PROGRAM === "iTerm.app") return "iterm";
  if (answers.attributes?.includes(4)) return "sixel";
  return "halfblocks";
}

/** One cell's pixels: as the terminal said, or its window's pixels over its cells. */
export function cellSize(answers: ProbeAnswers, size: { columns: number; rows: number }): { width: number; height: number } | undefined {
  if (answers.cellPx) return answers.cellPx;
  const w = answers.windowPx;
  if (!w || size.columns <= 0 || size.rows <= 0) return undefined;
  const cell = { width: Math.round(w.width / size.columns), height: Math.round(w.height / size.rows) };
  return cell.width > 0 && cell.height > 0 ? cell : undefined;
}

/** The record before any answer: what the environment says (set before the first frame). */
export function initialCapabilities(env: Env, images: boolean): Partial<TerminalCapabilities> {
  return { graphics: { mode: graphicsWithoutAsking(env, images) ?? "halfblocks", depth: colorDepth(env) } };
}

export interface ProbeOptions {
  write(bytes: string): void;
  env: Env;
  /** Whether image previews are on (the settings); off, no graphics question is asked. */
  images: boolean;
  /** The terminal's size in cells (for the cell size from the window's pixels). */
  size(): { columns: number; rows: number };
  waitMs?: number;
}

export interface Probe {
  /** Resolves once the graphics are decided (the last answer, or the wait over). */
  decided: Promise<void>;
  /** Stops listening (the app ends). */
  stop(): void;
}

/** Asks the terminal and writes what it answers into the terminal's record, as it comes. */
export function probeTerminal(options: ProbeOptions): Probe {
  const { env, images } = options;
  const known = graphicsWithoutAsking(env, images);
  const depth = colorDepth(env);
  const answers: ProbeAnswers = {};
  let decided = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let resolveDecided!: () => void;
  const decidedPromise = new Promise<void>((r) => (resolveDecided = r));

  const record = () => {
    const patch: Partial<TerminalCapabilities> = { graphics: { mode: known ?? (decided ? graphicsFrom(answers, env) : "halfblocks"), depth } };
    const cell = cellSize(answers, options.size());
    if (cell) patch.cellPx = cell;
    if (answers.background) patch.background = answers.background;
    if (answers.synchronizedOutput !== undefined) patch.synchronizedOutput = answers.synchronizedOutput;
    updateTerminalCapabilities(patch);
  };
  const decide = () => {
    clearTimeout(timer);
    decided = true;
    record();
    resolveDecided();
  };
  const stopListening = onTerminalAnswer((answer) => {
    if (!readAnswer(answer, answers)) {
      // More is coming (the last answer is the device attributes): over a slow link, keep waiting.
      expectAnswers(OWED_MS);
      return record();
    }
    answersSettled();
    decide();
  });
  record();
  expectAnswers(OWED_MS);
  options.write(probeQueries(env, images).join(""));
  if (!decided) timer = setTimeout(decide, options.waitMs ?? PROBE_WAIT_MS);
  return {
    decided: decidedPromise,
    stop() {
      clearTimeout(timer);
      stopListening();
    },
  };
}
