/**
 * Asks the terminal what it can draw, before the app takes the keyboard:
 * a kitty graphics query (answered only by terminals with the protocol), an
 * XTVERSION request (`ESC [>q`, which names the terminal: iTerm2 says so),
 * then a primary device attributes request (`ESC [c`), which every terminal
 * answers — so its answer ends the wait — and whose attribute 4 means sixel.
 * Inside tmux or screen the answers would be the multiplexer's and images
 * would not survive its redraws: half-blocks there, without asking.
 */
import type { ColorDepth } from "../../render/images/half-blocks.js";
import type { GraphicsMode, TerminalGraphics } from "./graphics.js";

export const KITTY_QUERY = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\";
export const XTVERSION_QUERY = "\x1b[>q";
export const DA1_QUERY = "\x1b[c";

type Env = Record<string, string | undefined>;

export function colorDepth(env: Env): ColorDepth {
  return /^(truecolor|24bit)$/i.test(env.COLORTERM ?? "") ? "truecolor" : "256";
}

export function inMultiplexer(env: Env): boolean {
  return Boolean(env.TMUX) || Boolean(env.STY) || /^(tmux|screen)/.test(env.TERM ?? "");
}

const MODES = new Set<GraphicsMode>(["kitty", "iterm", "sixel", "halfblocks", "off"]);

/** What the terminal's answers say (any order, possibly interleaved with nothing else). */
export function readAnswers(text: string, env: Env): { mode: GraphicsMode; complete: boolean } {
  const complete = /\x1b\[\?[\d;]*c/.test(text);
  const kitty = /\x1b_Gi=31;OK\x1b\\/.test(text);
  const version = /\x1bP>\|([^\x1b\x07]*)(?:\x1b\\|\x07)/.exec(text)?.[1] ?? "";
  const attrs = /\x1b\[\?([\d;]*)c/.exec(text)?.[1]?.split(";") ?? [];
  let mode: GraphicsMode = "halfblocks";
  if (kitty) mode = "kitty";
  else if (/^iTerm2/i.test(version) || env.TERM_PROGRAM === "iTerm.app") mode = "iterm";
  else if (attrs.includes("4")) mode = "sixel";
  return { mode, complete };
}

/** The terminal's answers to the three queries; whatever else arrived meanwhile is keys the user typed. */
const ANSWERS = /\x1b_G[^\x1b]*\x1b\\|\x1bP>\|[^\x1b\x07]*(?:\x1b\\|\x07)|\x1b\[\?[\d;]*c/g;

/** What was typed while the terminal was being asked: the text without the answers. */
export function typedMeanwhile(text: string): string {
  return text.replace(ANSWERS, "");
}

interface TerminalIn {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
  isRaw?: boolean;
  on(event: "readable", listener: () => void): unknown;
  removeListener(event: "readable", listener: () => void): unknown;
  read(): Buffer | string | null;
  /** Puts bytes back at the front of the input, for the app to read as keys. */
  unshift?(chunk: Buffer): unknown;
}

interface TerminalOut {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * Decides the graphics of the terminal: TERMCHAT_GRAPHICS (kitty, iterm,
 * sixel, halfblocks, off) when set, half-blocks inside a multiplexer or when
 * not a terminal, else what the terminal answers within `timeoutMs`.
 */
export async function detectTerminalGraphics(input: TerminalIn, output: TerminalOut, env: Env, timeoutMs = 800): Promise<TerminalGraphics> {
  const depth = colorDepth(env);
  const forced = env.TERMCHAT_GRAPHICS?.toLowerCase();
  if (forced && MODES.has(forced as GraphicsMode)) return { mode: forced as GraphicsMode, depth };
  if (inMultiplexer(env) || !input.isTTY || !output.isTTY) return { mode: "halfblocks", depth };
  let text = "";
  const wasRaw = input.isRaw ?? false;
  let onReadable: () => void = () => undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    input.setRawMode?.(true);
    // Read in paused mode, as Ink does: once this listener goes, what arrives stays buffered for
    // Ink's own reader. (A 'data' listener and pause() would stop the terminal's handle with a
    // read still pending, and Ink's 'readable' listener would then never fire.)
    const answered = new Promise<void>((resolve) => {
      onReadable = () => {
        for (let chunk = input.read(); chunk !== null; chunk = input.read()) text += chunk.toString();
        if (readAnswers(text, env).complete) resolve();
      };
      input.on("readable", onReadable);
      timer = setTimeout(resolve, timeoutMs);
    });
    output.write(KITTY_QUERY + XTVERSION_QUERY + DA1_QUERY);
    await answered;
  } finally {
    clearTimeout(timer);
    input.removeListener("readable", onReadable);
    input.setRawMode?.(wasRaw);
    // Keys typed while the terminal was asked are kept for the app, not lost.
    const typed = typedMeanwhile(text);
    if (typed) input.unshift?.(Buffer.from(typed));
  }
  return { mode: readAnswers(text, env).mode, depth };
}
