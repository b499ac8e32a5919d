/**
 * Ink cuts text that does not fit its box (`wrap="truncate"`) with cli-truncate, whose
 * ellipsis is "…": with the ASCII glyphs (a terminal without UTF-8) it is ours instead,
 * "..." (render/glyphs.ts). Swapped in for Ink's import by the Ink patch (scripts/ink-patch.mjs),
 * in the bundle and in the tests.
 */
import cliTruncate, { type Options } from "cli-truncate";
import { glyphs } from "../../render/glyphs.js";

export default function truncate(text: string, columns: number, options?: Options): string {
  const ellipsis = glyphs().ellipsis;
  return cliTruncate(text, columns, ellipsis === "…" ? options : { ...options, truncationCharacter: ellipsis });
}
