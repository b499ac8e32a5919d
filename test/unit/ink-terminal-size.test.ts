/** Ink's terminal size when its output stream has none (src/ui/ink-frame/terminal-size.ts). */
import { describe, expect, it } from "vitest";
import terminalSize from "../../src/ui/ink-frame/terminal-size.js";

describe("the terminal's size when standard output has none", () => {
  it("is standard output's when it has one, else standard error's", () => {
    expect(terminalSize([{ columns: 132, rows: 50 }, { columns: 90, rows: 20 }], {})).toEqual({ columns: 132, rows: 50 });
    expect(terminalSize([{}, { columns: 90, rows: 20 }], { COLUMNS: "200", LINES: "60" })).toEqual({ columns: 90, rows: 20 });
    expect(terminalSize([undefined, { columns: 90, rows: 0 }], { COLUMNS: "200", LINES: "60" })).toEqual({ columns: 200, rows: 60 });
  });

  it("comes from COLUMNS and LINES when neither stream is a terminal, else is 80 by 24", () => {
    expect(terminalSize([{}, {}], { COLUMNS: "120", LINES: "40" })).toEqual({ columns: 120, rows: 40 });
    expect(terminalSize([{}, {}], { COLUMNS: "120" })).toEqual({ columns: 80, rows: 24 });
    expect(terminalSize([{}, {}], { COLUMNS: "wide", LINES: "40" })).toEqual({ columns: 80, rows: 24 });
    expect(terminalSize([{}, {}], {})).toEqual({ columns: 80, rows: 24 });
  });
});
