import { render } from "ink";
import { App, type AppProps } from "./App.js";
import { Organizations } from "./OrganizationsRoot.js";
import { releaseStartupGarbage } from "./startup-memory.js";
import { traceFirstFrame } from "./startup-trace.js";
import { startMemoryTrace } from "./memory-trace.js";
import { KeypressProvider } from "./hooks/use-keypress.js";
import { withImageLayer } from "./images/screen-images.js";
import { DEFAULT_SETTINGS } from "../config/settings.js";
import { updateTerminalCapabilities } from "./terminal/capabilities.js";
import { initialCapabilities } from "./terminal/probe.js";
import { TerminalProbe } from "./terminal/TerminalProbe.js";
import { takeTerminal } from "./terminal/screen-mode.js";
import { noteLocale } from "./look.js";

/** The start path (cli/main.ts) collects the start's garbage when the user list comes. */
export { collectGarbage } from "./startup-memory.js";

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
      // The cached store's unread index, filed whole at its build (model/unread-buckets.ts), once its frame is out.
      setImmediate(() => (props.accounts?.active() ?? props.account).store()?.unreads.settle());
      afterFirstFrame?.();
    },
  };
  // The user list comes after the first frame (sync/user-list.ts), and leaves its own garbage: its
  // body and parsed JSON. Given back the same way once the live store has it.
  const off = props.account.subscribe(() => {
    const store = props.account.store();
    if (!store?.people.complete || !store.queueId) return;
    off();
    releaseStartupGarbage();
  });
  // The alternate screen and bracketed paste, before the first frame; given back on every way out.
  // Should an uncaught exception end the process, the app's last frame goes first, to the alternate screen.
  let instance: ReturnType<typeof render> | undefined;
  const terminal = takeTerminal(process.stdout, { beforeCrash: () => instance?.unmount() });
  // What the environment says of the terminal; the probe asks the rest once the first frame is out.
  const images = (props.settings ?? DEFAULT_SETTINGS).imagePreviews;
  updateTerminalCapabilities(initialCapabilities(process.env, images));
  // A locale that is not UTF-8 (LANG=C over SSH) gets ASCII glyphs (unless the settings say otherwise).
  noteLocale();
  instance = render(
    <TerminalProbe images={images} env={process.env}>
      <KeypressProvider onAnyKey={() => (props.accounts?.active() ?? props.account).actions.keyPressed()}>
        {props.accounts ? <Organizations {...props} accounts={props.accounts} /> : <App {...props} />}
      </KeypressProvider>
    </TerminalProbe>,
    // Images drawn by the terminal (once it said it can) go over the cells the layout left for them, kept in step with every frame by the frame writer.
    { exitOnCtrlC: false, patchConsole: true, ...(images && { stdout: withImageLayer(process.stdout) }) },
  );
  // As soon as the app has ended, before anything else is printed (an error's one line).
  instance.waitUntilExit().then(terminal.restore, terminal.restore);
  return instance;
}
