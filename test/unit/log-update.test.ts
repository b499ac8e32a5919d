/**
 * The writer Ink draws frames through: each frame wrapped in synchronized output only once the
 * terminal said it has the mode, never on a stream that is no terminal, and nothing written
 * for a frame that did not change.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createLogUpdate } from "../../src/ui/ink-frame/log-update.js";
import { BEGIN_SYNC, END_SYNC } from "../../src/ui/ink-frame/sync-mode.js";
import { resetTerminalCapabilities, updateTerminalCapabilities } from "../../src/ui/terminal/capabilities.js";

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, columns: 40, rows: 10, write: (d: string) => writes.push(d) };
}

afterEach(() => resetTerminalCapabilities());

describe("the frame writer as Ink's log-update", () => {
  it("does not wrap frames until the terminal answers that it has synchronized output", () => {
    const out = stream(true);
    const log = createLogUpdate(out);
    log("one\ntwo\n");
    expect(out.writes.join("")).not.toContain(BEGIN_SYNC);
    updateTerminalCapabilities({ synchronizedOutput: true }); // the probe heard the terminal say so
    log("one\nTWO\n");
    const last = out.writes.at(-1)!;
    expect(last.startsWith(BEGIN_SYNC) && last.endsWith(END_SYNC)).toBe(true);
    expect(last).toContain("TWO");
    expect(last).not.toContain("one");
  });

  it("writes nothing for an unchanged frame, and never wraps on a stream that is no terminal", () => {
    updateTerminalCapabilities({ synchronizedOutput: true });
    const out = stream(false);
    const log = createLogUpdate(out);
    expect(log("a\n")).toBe(true);
    expect(log("a\n")).toBe(false);
    expect(out.writes).toHaveLength(1);
    expect(out.writes[0]).toBe("a\n");
  });
});
