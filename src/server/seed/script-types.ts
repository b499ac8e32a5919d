// The format in which the demo conversations are written.
//
// A script is one conversation (a channel topic, or a direct-message thread).
// `at` is "<day> <HH:MM>" in UTC, day 0..9 counting from 2026-11-11; each line
// follows the previous one after `gap` minutes (or a few pseudo-random ones).
// `react` lists reactions as "emoji:user,user;emoji:user"; `edit` is the text
// the message had before its one edit; `at` on a line jumps to a new time.

export interface LineExtra {
  react?: string;
  gap?: number;
  at?: string;
  edit?: string;
  starred?: boolean;
}

export type Line = readonly [who: string, text: string] | readonly [who: string, text: string, extra: LineExtra];

export interface ChannelScript {
  channel: string;
  topic: string;
  at: string;
  lines: readonly Line[];
}

export interface DmScript {
  /** Every participant (local names such as "maya"). */
  between: readonly string[];
  at: string;
  lines: readonly Line[];
}
