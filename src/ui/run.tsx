import { render } from "ink";
import { App, type AppProps } from "./App.js";
import { KeypressProvider } from "./hooks/use-keypress.js";

/** Mounts the app on the terminal. Ctrl-C is a key like any other (the app decides). */
export function runApp(props: AppProps) {
  const instance = render(
    <KeypressProvider onAnyKey={() => props.machine.nudge()}>
      <App {...props} />
    </KeypressProvider>,
    { exitOnCtrlC: false, patchConsole: true },
  );
  return instance;
}
