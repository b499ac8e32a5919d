import { render } from "ink";
import { App, type AppProps } from "./App.js";
import { releaseStartupGarbage } from "./startup-memory.js";
import { traceFirstFrame } from "./startup-trace.js";
import { startMemoryTrace } from "./memory-trace.js";
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, KeypressProvider } from "./hooks/use-keypress.js";
import { drawnByTerminal, terminalGraphics } from "./images/graphics.js";
import { withImageOverlay } from "./images/overlay.js";
import { noteLocale } from "./look.js";

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
  // A locale that is not UTF-8 (LANG=C over SSH) gets ASCII glyphs (unless the settings say otherwise).
  noteLocale();
  // Pasted text arrives marked, so a pasted newline never sends the message.
  process.stdout.write(BRACKETED_PASTE_ON);
  process.once("exit", () => process.stdout.write(BRACKETED_PASTE_OFF));
  const instance = render(
    <KeypressProvider onAnyKey={() => props.session.keyPressed()}>
      <App {...props} />
    </KeypressProvider>,
    // Images drawn by the terminal are written after each frame, over the rows the layout left for them.
    { exitOnCtrlC: false, patchConsole: true, ...(drawnByTerminal(terminalGraphics().mode) && { stdout: withImageOverlay(process.stdout) }) },
  );
  return instance;
}
