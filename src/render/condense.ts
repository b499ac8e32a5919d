/**
 * Long messages are drawn condensed, as the service's apps draw them: their beginning, then one
 * line saying how much more there is and the key that shows all of it. Drawing a message costs
 * time in proportion to its length, and a member can post 10,000 characters made to be slow to
 * draw: condensed, each costs what its beginning costs until the reader asks for the rest.
 */

/** The key that shows a condensed message whole (and condenses it again), as in the service's apps. */
export const EXPAND_KEY = "-";

/** Messages longer than this (in UTF-16 units, as the service counts) are condensed. */
export const CONDENSE_ABOVE = 4000;
/** About how much of a condensed message is drawn: up to a line break before this, if one comes late enough. */
export const CONDENSED_LENGTH = 1500;

export interface Condensed {
  /** The beginning to draw, with a code fence it opens closed again. */
  text: string;
  /** Characters (code points) left out. */
  hidden: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The part of `content` to draw condensed, or undefined when it is short enough to draw whole. */
export function condense(content: string): Condensed | undefined {
  if (content.length <= CONDENSE_ABOVE) return undefined;
  let cut = content.lastIndexOf("\n", CONDENSED_LENGTH);
  if (cut < CONDENSED_LENGTH / 2) cut = CONDENSED_LENGTH;
  // Never between the two halves of a surrogate pair.
  const code = content.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  let text = content.slice(0, cut);
  // A fence opened in the beginning and closed only in the rest: closed here, so what follows
  // the message is not read as code.
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const fence = FENCE.exec(line)?.[1];
    if (!fence) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  if (open !== undefined) text += `\n${open}`;
  let hidden = 0;
  for (const _ of content.slice(cut)) hidden++;
  return { text, hidden };
}
