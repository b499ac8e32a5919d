/**
 * Escape sequences termchat writes on purpose: bell, desktop notifications
 * (OSC 9 and OSC 777), clipboard (OSC 52) and hyperlinks (OSC 8). Every
 * payload is cleaned first, so text from the server can never end the
 * sequence early and smuggle in one of its own.
 */
import { sanitizeInline } from "./sanitize.js";

const BEL = "\x07";
const ST = "\x1b\\";

export function bell(): string {
  return BEL;
}

/** Text safe inside an OSC payload: one line, no controls, bounded length. */
function payload(text: string, max = 200): string {
  const clean = sanitizeInline(text, { keepEmoji: true }); // for the desktop, which has its own fonts
  return clean.length > max ? clean.slice(0, max - 1) + "…" : clean;
}

/** OSC 9 (iTerm2, Windows Terminal, many others): one message. */
export function osc9Notification(title: string, body: string): string {
  return `\x1b]9;${payload(`${title}: ${body}`)}${BEL}`;
}

/** OSC 777 (rxvt, VTE/GNOME terminals, foot, WezTerm): title and body; ';' separates fields, so it is replaced. */
export function osc777Notification(title: string, body: string): string {
  return `\x1b]777;notify;${payload(title, 80).replace(/;/g, ",")};${payload(body).replace(/;/g, ",")}${BEL}`;
}

/** OSC 52: puts text on the clipboard of the terminal the user sits at (works over SSH). */
export function osc52Copy(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}${BEL}`;
}

/** A URL fit for OSC 8: http(s) or mailto only, no controls or spaces; undefined otherwise. */
export function safeLinkTarget(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (!["http:", "https:", "mailto:"].includes(u.protocol)) return undefined;
  const href = u.href;
  // URL serialization percent-encodes spaces and controls; refuse anything that slipped through.
  return /[\x00-\x20\x7f-\x9f]/.test(href) ? undefined : href;
}

/** OSC 8 hyperlink around visible text (the text is cleaned; an unsafe URL leaves plain text). */
export function osc8Link(url: string, text: string): string {
  const target = safeLinkTarget(url);
  const visible = sanitizeInline(text);
  return target ? `\x1b]8;;${target}${ST}${visible}\x1b]8;;${ST}` : visible;
}

/** Whether the terminal is known to show OSC 8 links (others would show nothing harmful, but no link). */
export function supportsHyperlinks(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_HYPERLINK !== undefined) return env.FORCE_HYPERLINK !== "0";
  if (env.TMUX || /^screen/.test(env.TERM ?? "")) return false;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.WEZTERM_PANE || env.DOMTERM) return true;
  if (["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper"].includes(env.TERM_PROGRAM ?? "")) return true;
  if (Number(env.VTE_VERSION ?? 0) >= 5000) return true;
  return /^(xterm-kitty|alacritty|foot|contour)/.test(env.TERM ?? "");
}
