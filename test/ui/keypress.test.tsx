import { act } from "react";
import { render } from "ink-testing-library";
import { Text } from "ink";
import { describe, expect, it } from "vitest";
import { KeypressProvider, useKeypress } from "../../src/ui/hooks/use-keypress.js";

function Recorder({ log }: { log: string[] }) {
  useKeypress((name, input) => {
    log.push(name === "paste" ? `paste:${JSON.stringify(input)}` : name);
    return true;
  });
  return <Text>ready</Text>;
}

async function feed(chunks: string[]): Promise<string[]> {
  const log: string[] = [];
  let r!: ReturnType<typeof render>;
  await act(async () => {
    r = render(
      <KeypressProvider>
        <Recorder log={log} />
      </KeypressProvider>,
    );
  });
  for (const c of chunks) {
    await act(async () => {
      r.stdin.write(c);
      await new Promise((res) => setTimeout(res, 20));
    });
  }
  r.unmount();
  return log;
}

describe("the keypress bus", () => {
  it("splits keys that arrive together into single presses, in order", async () => {
    expect(await feed(["jjK\r"])).toEqual(["j", "j", "K", "enter"]);
  });

  it("turns a bracketed paste into one event with the text, newlines included", async () => {
    expect(await feed(["\x1b[200~", "first line\rsecond", "\x1b[201~", "j"])).toEqual(['paste:"first line\\rsecond"', "j"]);
  });

  it("reads Escape joined with the next character as Escape, then that character", async () => {
    expect(await feed(["\x1bq", "\x1bG", "\x1b"])).toEqual(["escape", "q", "escape", "G", "escape"]);
  });

  it("names a control key read together with typed text as it names it alone", async () => {
    expect(await feed(["notes: \x14", "\x14", "ab\x0fc"])).toEqual(["n", "o", "t", "e", "s", ":", " ", "C-t", "C-t", "a", "b", "C-o", "c"]);
  });

  it("passes single keys and control keys through unchanged", async () => {
    expect(await feed(["q", "\x0b", "\x1b[A"])).toEqual(["q", "C-k", "up"]);
  });

  it("names Ctrl-J (a line feed) the same alone and within a burst", async () => {
    expect(await feed(["\n", "a\n"])).toEqual(["C-j", "a", "C-j"]);
  });

  it("keeps Ctrl with a letter a key when it arrives together with text (Ctrl-U, then what replaces the line)", async () => {
    expect(await feed(["\x15new", "ab\x17c"])).toEqual(["C-u", "n", "e", "w", "a", "b", "C-w", "c"]);
  });
});
