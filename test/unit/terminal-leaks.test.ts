/** The end-to-end tests' leak finder: a payload's escape is found; a write cut off at the log's end is not a leak. */
import { expect, it } from "vitest";
import { terminalLeaks } from "../fixtures/hostile.js";

it("finds an escape that is no CSI or allowed OSC, and passes over a sequence the log was read in the middle of", () => {
  const frame = "\x1b[2J\x1b[1;1Hhello \x1b[31mworld\x1b[0m\r\n";
  expect(terminalLeaks(Buffer.from(frame))).toEqual([]);
  expect(terminalLeaks(Buffer.from(frame + "\x1bPpwned\x1b\\" + frame)).some((p) => p.startsWith("escape sequence"))).toBe(true);
  for (const cut of ["\x1b", "\x1b[", "\x1b[12;3"]) expect(terminalLeaks(Buffer.from(frame + cut))).toEqual([]);
  // A character cut in the middle of its bytes, at the end only.
  expect(terminalLeaks(Buffer.concat([Buffer.from(frame), Buffer.from("é").subarray(0, 1)]))).toEqual([]);
  expect(terminalLeaks(Buffer.concat([Buffer.from(frame), Buffer.from([0xff]), Buffer.from(frame)]))).not.toEqual([]);
});
