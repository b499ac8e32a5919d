/**
 * A message's edit history as the lines message info shows (model/edit-history.ts makes the
 * steps): the original, then each edit as a word diff — removed words as [-these-], added
 * ones as {+these+}, coloured where the terminal has colours — and each move from
 * channel › topic to channel › topic (or the topic resolved or unresolved). Every string from
 * the server is sanitized; long lines wrap at word boundaries keeping each word's style.
 */
import type { MessageHistoryResponse } from "../api/schemas/responses.js";
import { editSteps, type EditMove } from "../model/edit-history.js";
import type { Store } from "../model/store.js";
import { presentEmoji, t } from "../render/glyphs.js";
import { sanitize, sanitizeInline } from "../render/sanitize.js";
import { formatDateTime } from "../render/time.js";
import type { DiffOp, DiffRun } from "../render/word-diff.js";
import { displayWidth, wrapText } from "../render/wrap.js";

export interface InfoLine {
  text: string;
  kind?: "heading" | "dim" | "body" | "diff";
  /** A diff line: its pieces, each with what happened to it (the text is their concatenation). */
  runs?: DiffRun[];
}

const MARKS: Record<DiffOp, [string, string]> = { equal: ["", ""], delete: ["[-", "-]"], insert: ["{+", "+}"] };

/** Text as message info shows a body: sanitized, emoji as the terminal shows them, wrapped and indented. */
export function bodyBlock(text: string, width: number, indent = "  "): InfoLine[] {
  const clean = presentEmoji(sanitize(text, { multiline: true })).replace(/\s+$/, "");
  if (clean === "") return [{ text: indent + "(empty)", kind: "dim" }];
  return wrapText(clean, Math.max(10, width - indent.length))
    .split("\n")
    .map((l) => ({ text: indent + l, kind: "body" as const }));
}

/** A word diff as lines of styled pieces, wrapped at `width` (a word longer than a line is cut). */
export function diffLines(runs: readonly DiffRun[], width: number, indent = "  "): InfoLine[] {
  const room = Math.max(10, width - indent.length);
  const out: InfoLine[] = [];
  let line: DiffRun[] = [];
  let used = 0;
  const flush = () => {
    const pieces = [{ op: "equal" as const, text: indent }, ...line];
    out.push({ text: pieces.map((p) => p.text).join(""), kind: "diff", runs: pieces });
    line = [];
    used = 0;
  };
  const put = (op: DiffOp, text: string) => {
    let rest = text;
    while (rest !== "") {
      const w = displayWidth(rest);
      if (used + w <= room) {
        const last = line[line.length - 1];
        if (last && last.op === op) last.text += rest;
        else line.push({ op, text: rest });
        used += w;
        return;
      }
      if (used > 0 && w <= room) {
        flush();
        if (/^\s+$/.test(rest)) return; // a line does not start with the space it broke at
        continue;
      }
      // Longer than a whole line: as much as fits, then the rest on the next.
      let cut = 0;
      let cw = 0;
      for (const ch of rest) {
        const chw = displayWidth(ch);
        if (used + cw + chw > room) break;
        cut += ch.length;
        cw += chw;
      }
      if (cut === 0) {
        flush();
        continue;
      }
      put(op, rest.slice(0, cut));
      flush();
      rest = rest.slice(cut);
    }
  };
  // Marks go around the words that changed, not the space before or after them: "surely {+not+}".
  const pieces: Array<{ op: DiffOp; text: string; marked: boolean }> = [];
  for (const r of runs) {
    const clean = presentEmoji(sanitize(r.text, { multiline: true }));
    const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(clean)!;
    if (r.op === "equal" || m[2] === "") pieces.push({ op: r.op, text: clean, marked: r.op !== "equal" });
    else {
      if (m[1]) pieces.push({ op: "equal", text: m[1], marked: false });
      pieces.push({ op: r.op, text: m[2]!, marked: true });
      if (m[3]) pieces.push({ op: "equal", text: m[3], marked: false });
    }
  }
  for (const p of pieces) {
    const [open, close] = p.marked ? MARKS[p.op] : ["", ""];
    const paragraphs = p.text.split("\n");
    paragraphs.forEach((para, i) => {
      if (i > 0) flush();
      const words = para.split(/(\s+)/).filter((w) => w !== "");
      words.forEach((w, k) => put(p.op, (k === 0 && i === 0 ? open : "") + w + (k === words.length - 1 && i === paragraphs.length - 1 ? close : "")));
    });
  }
  if (line.length) flush();
  return out;
}

function place(store: Store, at: EditMove["from"]): string {
  const topic = sanitizeInline(store.topicDisplayName(at.topic));
  return at.channelId === undefined ? topic : t`#${sanitizeInline(store.channelName(at.channelId) ?? String(at.channelId))} › ${topic}`;
}

function moveText(store: Store, m: EditMove): string {
  if (m.kind === "resolve") return "resolved the topic";
  if (m.kind === "unresolve") return "unresolved the topic";
  return t`moved from ${place(store, m.from)} to ${place(store, m.to)}`;
}

/** The edit history as lines: the original as posted, then each edit's diff and move. `channelId`: the message's channel now. */
export function historyLines(store: Store, history: MessageHistoryResponse["message_history"], channelId: number | undefined, width: number): InfoLine[] {
  const out: InfoLine[] = [];
  for (const step of editSteps(history, channelId)) {
    const who = step.userId != null ? sanitizeInline(store.userName(step.userId)) : "someone";
    const what: string[] = [];
    if (step.index === 0) what.push("posted");
    if (step.diff) what.push("edited the content");
    if (step.move) what.push(moveText(store, step.move));
    if (what.length === 0) what.push("changed");
    out.push({ text: t`${formatDateTime(step.timestamp)} · ${who} · ${what.join("; ")}`, kind: "heading" });
    if (step.index === 0) out.push(...bodyBlock(step.content, width));
    else if (step.diff) {
      if (step.diff.granularity === "whole") out.push({ text: "  (replaced as a whole: too different to compare word by word)", kind: "dim" });
      out.push(...diffLines(step.diff.runs, width));
    }
  }
  return out;
}
