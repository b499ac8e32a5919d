/**
 * Taking the terminal (src/ui/terminal/screen-mode.ts): the alternate screen only when output is
 * a terminal, bracketed paste always, and everything given back once, with the cursor shown.
 * (The ways out, signals and crashes included, are checked on the built client in
 * test/e2e/screen-mode.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { MOUSE_OFF, MOUSE_ON, mouseReporting, resetMouse, setMouseReporting } from "../../src/ui/terminal/mouse.js";
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN, takeTerminal, usesAlternateScreen } from "../../src/ui/terminal/screen-mode.js";

function output(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (s: string) => void writes.push(s) };
}

describe("taking the terminal", () => {
  it("enters the alternate screen at its top line on a terminal, and leaves it once", () => {
    const out = output(true);
    const taken = takeTerminal(out);
    expect(usesAlternateScreen()).toBe(true);
    expect(out.writes.join("")).toBe(`${ENTER_ALTERNATE_SCREEN}\x1b[H${BRACKETED_PASTE_ON}`);
    taken.restore();
    taken.restore();
    expect(usesAlternateScreen()).toBe(false);
    expect(out.writes.slice(1)).toEqual([`${BRACKETED_PASTE_OFF}\x1b[?25h${LEAVE_ALTERNATE_SCREEN}`]);
  });

  it("never switches screens when output is not a terminal", () => {
    const out = output(false);
    takeTerminal(out).restore();
    expect(usesAlternateScreen()).toBe(false);
    expect(out.writes.join("")).not.toContain("\x1b[?1049");
    expect(out.writes.join("")).toContain(BRACKETED_PASTE_OFF);
  });

  it("gives the terminal back even when the terminal is gone (a hang-up)", () => {
    const taken = takeTerminal({ isTTY: true, write: () => {
      throw new Error("EIO");
    } });
    expect(() => taken.restore()).not.toThrow();
    expect(usesAlternateScreen()).toBe(false);
  });

  it("turns mouse reporting off on the way out when the reader had turned it on, and asks nothing otherwise", () => {
    resetMouse();
    const plain = output(true);
    takeTerminal(plain).restore();
    expect(plain.writes.join("")).not.toMatch(/\x1b\[\?100[026]/);

    const out = output(true);
    const taken = takeTerminal(out);
    setMouseReporting(true, (s) => void out.writes.push(s));
    setMouseReporting(true, (s) => void out.writes.push(s));
    expect(out.writes.filter((w) => w === MOUSE_ON)).toHaveLength(1);
    taken.restore();
    expect(out.writes.at(-1)!.startsWith(MOUSE_OFF)).toBe(true);
    expect(mouseReporting()).toBe(false);
  });
});
