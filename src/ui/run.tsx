import { render } from "ink";
import { App, type AppProps } from "./App.js";
import { releaseStartupGarbage } from "./startup-memory.js";
import { traceFirstFrame } from "./startup-trace.js";
import { startMemoryTrace } from "./memory-trace.js";
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, KeypressProvider } from "./hooks/use-keypress.js";
import { drawnByTerminal, terminalGraphics } from "./images/graphics.js";
import { withImageLayer } from "./images/screen-images.js";

/**
 * Mounts the app on the terminal. Ctrl-C is a key like any other (the app decides).
 * `afterFirstFrame` runs once the first frame is on screen.
 */
export function runApp(props: AppProps, afterFirstFrame?: () => void) {
  performance.mark("termchat:render");
  const trace = process.env.TERMCHAT_TRACE_STARTUP;
  const memoryTrace = process.env.TERMCHAT_TRACE_MEMORY;
  props = {
    ...props,
    onFirstFrame: () => {
      if (trace) traceFirstFrame(trace);
      if (memoryTrace) startMemoryTrace(memoryTrace);
      releaseStartupGarbage();
      afterFirstFrame?.();
    },
  };
  // Pasted text arrives marked, so a pasted newline never sends the message.
  process.stdout.write(BRACKETED_PASTE_ON);
  process.once("exit", () => process.stdout.write(BRACKETED_PASTE_OFF));
  const instance = render(
    <KeypressProvider onAnyKey={() => props.session.keyPressed()}>
      <App {...props} />
    </KeypressProvider>,
    // Images drawn by the terminal go over the cells the layout left for them, kept in step with every frame by the frame writer.
    { exitOnCtrlC: false, patchConsole: true, ...(drawnByTerminal(terminalGraphics().mode) && { stdout: withImageLayer(process.stdout) }) },
  );
  return instance;
}
