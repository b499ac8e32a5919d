/**
 * What the pointer is on (src/ui/mouse/hit-map.ts, link-at.ts): a sidebar row by its index in
 * the sidebar's rows (the window scrolled, the filter line above), a message's line and the
 * column in its text, nothing outside a part; and the link at a column of a laid-out line,
 * from its OSC 8 address, or its address in the text, wrapped or not, with wide characters
 * before it.
 */
import { describe, expect, it } from "vitest";
import type { MessageLink } from "../../src/render/message-links.js";
import type { Line } from "../../src/ui/message-layout.js";
import { hitIn, type ListRegion, type MessagesRegion, type SidebarRegion } from "../../src/ui/mouse/hit-map.js";
import { atColumn, linkAt } from "../../src/ui/mouse/link-at.js";

const box = { current: null };

describe("hit testing", () => {
  const sidebar: SidebarRegion = { kind: "sidebar", box, above: 1, start: 10, count: 5 };
  const place = { top: 0, left: 0, width: 24, height: 8 };

  it("a sidebar row: the window's first row shown plus the row under the pointer, below the filter line", () => {
    expect(hitIn(sidebar, place, 3, 1)).toEqual({ kind: "sidebar", index: 10 });
    expect(hitIn(sidebar, place, 23, 5)).toEqual({ kind: "sidebar", index: 14 });
    // The filter line, the empty rows below the list, and the cells beside the sidebar are no row.
    expect(hitIn(sidebar, place, 3, 0)).toBeUndefined();
    expect(hitIn(sidebar, place, 3, 6)).toBeUndefined();
    expect(hitIn(sidebar, place, 24, 2)).toBeUndefined();
  });

  it("a list view's row: below its title, the list's own region with it (to open it or move its cursor)", () => {
    const list: ListRegion = { kind: "list", box, above: 1, start: 4, count: 3, open: () => {}, move: () => {} };
    expect(hitIn(list, { top: 0, left: 25, width: 50, height: 20 }, 30, 2)).toEqual({ kind: "list", index: 5, list });
    expect(hitIn(list, { top: 0, left: 25, width: 50, height: 20 }, 30, 0)).toBeUndefined();
    expect(hitIn(list, { top: 0, left: 25, width: 50, height: 20 }, 30, 4)).toBeUndefined();
  });

  it("a message: whose line it is, and the column in the line's text (after the gutter and indent)", () => {
    const line = (text: string): Line => ({ text, style: "body" });
    const rows = [
      { id: 1, line: { text: "Ann  10:00", style: "sender" } as Line },
      { id: 1, line: line("hello") },
      { id: 2, line: line("world") },
    ];
    const pane: MessagesRegion = { kind: "messages", box, rows, textLeft: 2 };
    const at = { top: 1, left: 25, width: 50, height: 10 };
    expect(hitIn(pane, at, 29, 2)).toEqual({ kind: "message", id: 1, line: rows[1]!.line, column: 2 });
    expect(hitIn(pane, at, 25, 3)).toMatchObject({ kind: "message", id: 2, column: -2 });
    // Above the pane (its title), below its last line, left of it (the sidebar).
    expect(hitIn(pane, at, 30, 0)).toBeUndefined();
    expect(hitIn(pane, at, 30, 4)).toBeUndefined();
    expect(hitIn(pane, at, 24, 2)).toBeUndefined();
  });
});

describe("the link at a column", () => {
  const osc8 = (url: string, text: string) => `\x1b]8;;${url}\x07${text}\x1b]8;;\x07`;
  const links: MessageLink[] = [
    { url: "https://example.com/a/very/long/path/that/wraps", label: "", upload: false },
    { url: "/user_uploads/2/ab/cd/report.pdf", label: "report", upload: true },
  ];

  it("an OSC 8 link: its address wherever its text is clicked, styles around it read, not counted", () => {
    const text = `\x1b[1mSee\x1b[22m ${osc8("https://docs.example.com/x", "\x1b[4mthe docs\x1b[24m")} now`;
    expect(linkAt(text, 4, [])).toBe("https://docs.example.com/x");
    expect(linkAt(text, 11, [])).toBe("https://docs.example.com/x");
    expect(linkAt(text, 0, [])).toBeUndefined();
    expect(linkAt(text, 13, [])).toBeUndefined();
  });

  it("an address in the text, in brackets or wrapped over lines: the whole address, from the message's links", () => {
    expect(linkAt("read this (https://example.com/a/very/long/", 20, links)).toBe(links[0]!.url);
    expect(linkAt("path/that/wraps) please", 3, links)).toBe(links[0]!.url);
    expect(linkAt("the report (/user_uploads/2/ab/cd/report.pdf)", 20, links)).toBe(links[1]!.url);
    // An address the message's links do not have (a linkifier's) is taken as it is.
    expect(linkAt("go to https://other.example.org/z.", 10, links)).toBe("https://other.example.org/z");
  });

  it("plain words open nothing, even a word of a link's address", () => {
    expect(linkAt("read this (https://example.com/a/very/long/", 2, links)).toBeUndefined();
    expect(linkAt("the path is long", 5, links)).toBeUndefined();
    expect(linkAt("hello   world", 6, links)).toBeUndefined();
    expect(linkAt("short", 40, links)).toBeUndefined();
  });

  it("counts wide characters and emoji as the cells they take", () => {
    const text = "日本 🎉 https://example.com/a/very/long/path/that/wraps";
    // 日本 takes 4 cells, a space, 🎉 2, a space: the address starts at cell 8.
    expect(atColumn(text, 7)).toBeUndefined();
    expect(atColumn(text, 8)?.word).toBe(links[0]!.url);
    expect(atColumn(text, 1)?.word).toBe("日本");
    expect(atColumn(text, 5)?.word).toBe("🎉");
  });
});
