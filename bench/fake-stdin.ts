// A keyboard for benchmarks that render the app in-process: what is written to it arrives as
// keys, and it says it is a terminal in raw mode.
import { PassThrough } from "node:stream";

export type FakeStdin = PassThrough & { isTTY: boolean; setRawMode(v: boolean): void; ref(): void; unref(): void };

export function fakeStdin(): FakeStdin {
  const s = new PassThrough() as FakeStdin;
  s.isTTY = true;
  s.setRawMode = () => undefined;
  s.ref = () => undefined;
  s.unref = () => undefined;
  return s;
}
