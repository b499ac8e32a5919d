/**
 * Mounts the real App (ink-testing-library, inside act()) on a sync session the test has
 * set up itself, against whatever server it chose.
 */
import { act } from "react";
import { render } from "ink-testing-library";
import type { SyncSession } from "../../src/sync/session.js";
import { App, type AppProps } from "../../src/ui/App.js";
import { KeypressProvider } from "../../src/ui/hooks/use-keypress.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export async function mountApp(session: SyncSession, props: Omit<AppProps, "session"> = {}): Promise<ReturnType<typeof render>> {
  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(
      <KeypressProvider>
        <App session={session} color={false} {...props} />
      </KeypressProvider>,
    );
  });
  return instance;
}
