/**
 * Renders the real App (ink-testing-library) on a real sync layer connected
 * to the in-process reference server. Keys and waits run inside act().
 */
import { act } from "react";
import { render } from "ink-testing-library";
import { App } from "../../src/ui/App.js";
import { KeypressProvider } from "../../src/ui/hooks/use-keypress.js";
import { Commands } from "../../src/sync/commands.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

export interface AppHarness {
  ctx: ServerFixture;
  machine: UpdateMachine;
  commands: Commands;
  frame(): string;
  press(...keys: string[]): Promise<void>;
  waitFor(match: string | RegExp, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

export const KEY = { enter: "\r", escape: "\u001b", down: "\u001b[B", up: "\u001b[A", ctrlJ: "\n", backspace: "\u007f" };

export async function renderApp(): Promise<AppHarness> {
  const ctx = await withServer({ heartbeatMs: 500 });
  const machine = new UpdateMachine(ctx.client());
  const commands = new Commands(machine);
  await machine.start();
  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(
      <KeypressProvider>
        <App machine={machine} commands={commands} color={false} />
      </KeypressProvider>,
    );
  });
  const frame = () => instance.lastFrame() ?? "";
  return {
    ctx,
    machine,
    commands,
    frame,
    async press(...keys) {
      for (const k of keys) {
        await act(async () => {
          instance.stdin.write(k);
          await new Promise((r) => setTimeout(r, 15));
        });
      }
    },
    async waitFor(match, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (let i = 0; i < 1000 && Date.now() < deadline; i++) {
        const f = frame();
        if (typeof match === "string" ? f.includes(match) : match.test(f)) return f;
        await act(async () => {
          await new Promise((r) => setTimeout(r, 20));
        });
      }
      throw new Error(`waited ${timeoutMs} ms for ${String(match)}; last frame:\n${frame()}`);
    },
    async close() {
      await act(async () => instance.unmount());
      commands.dispose();
      await machine.stop();
      await ctx.close();
    },
  };
}
