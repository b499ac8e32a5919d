/**
 * The terminal's answer to the synchronized-output query arrives on the key input: the keypress
 * bus must swallow it (no stray "[?2026;2$y" keys) and the frame writer must learn from it.
 */
import { act } from "react";
import { render } from "ink-testing-library";
import { Text } from "ink";
import { afterEach, describe, expect, it } from "vitest";
import { KeypressProvider, useKeypress } from "../../src/ui/hooks/use-keypress.js";
import { resetSyncSupport, syncSupported, takeSyncReport } from "../../src/ui/ink-frame/sync-mode.js";

function Recorder({ log }: { log: string[] }) {
  useKeypress((name) => {
    log.push(name);
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

afterEach(() => resetSyncSupport());

describe("the synchronized-output answer", () => {
  it("never reaches a key handler, alone or between keys, and turns synchronized output on", async () => {
    expect(syncSupported()).toBe(false);
    expect(await feed(["j", "\x1b[?2026;2$y", "k"])).toEqual(["j", "k"]);
    expect(syncSupported()).toBe(true);
    resetSyncSupport();
    expect(await feed(["j\x1b[?2026;1$yk"])).toEqual(["j", "k"]);
    expect(syncSupported()).toBe(true);
  });

  it("leaves synchronized output off when the terminal does not know the mode", async () => {
    expect(await feed(["\x1b[?2026;0$y", "q"])).toEqual(["q"]);
    expect(syncSupported()).toBe(false);
    expect(takeSyncReport("\x1b[?2026;4$y")).toBe(true);
    expect(syncSupported()).toBe(false);
    expect(takeSyncReport("[?2026;3$y")).toBe(true);
    expect(syncSupported()).toBe(true);
    expect(takeSyncReport("j")).toBe(false);
  });
});
