/**
 * The compose box's soft wrap on a long message: what laying out the text
 * costs (done on each frame the box is drawn, twice: its height and its
 * lines), and what ↑ costs (it lays the text out to find the line above).
 * Texts of 10,000 characters, the organization's usual limit, ASCII and
 * with emoji and CJK (measured cluster by cluster), in a box 86 columns wide
 * (the App's at 120 columns); and what ← and Backspace cost (they find the
 * grapheme cluster before the cursor).
 */
import { editorReducer, type EditorState } from "../src/ui/compose-editor.js";
import { layoutText } from "../src/ui/compose-wrap.js";
import { printFigure } from "./util.js";

const WIDTH = 86;
const ROUNDS = 300;

function textOf(words: string): string {
  let t = "";
  while (t.length < 10_000) t += words;
  return t.slice(0, 10_000);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(fn: () => void): number {
  const runs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    fn();
    runs.push(performance.now() - start);
  }
  return median(runs);
}

for (const [label, text] of [
  ["ASCII", textOf("the quick brown fox jumps over the lazy dog ")],
  ["emoji and CJK", textOf("the quick brown fox 👍 jumps over 日本語のテキスト the 👨‍👩‍👧 dog ")],
] as const) {
  for (let i = 0; i < 20; i++) layoutText(text, WIDTH); // warm up
  printFigure(`layout of 10,000 characters (${label}), median`, time(() => layoutText(text, WIDTH)).toFixed(2), "ms");
  let s: EditorState = { text, cursor: text.length };
  printFigure(`↑ from the end (${label}), median`, time(() => void (s = editorReducer({ text, cursor: text.length }, { type: "up", width: WIDTH }))).toFixed(2), "ms");
  printFigure(`Backspace at the end (${label}), median`, time(() => void editorReducer({ text, cursor: text.length }, { type: "backspace" })).toFixed(2), "ms");
  printFigure(`← from the end (${label}), median`, time(() => void editorReducer({ text, cursor: text.length }, { type: "left" })).toFixed(2), "ms");
  printFigure(`lines (${label})`, layoutText(s.text, WIDTH).length, "");
}
