/**
 * Mounts the real App (ink-testing-library, inside act()) on an account runtime the test has
 * set up itself, against whatever server it chose.
 */
import { act } from "react";
import { render } from "ink-testing-library";
import { accountHandle } from "../../src/sync/account-handle.js";
import type { AccountRuntime } from "../../src/sync/account-runtime.js";
import { App, type AppProps } from "../../src/ui/App.js";
import { KeypressProvider } from "../../src/ui/hooks/use-keypress.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export async function mountApp(runtime: AccountRuntime, props: Omit<AppProps, "account"> = {}): Promise<ReturnType<typeof render>> {
  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(
      <KeypressProvider>
        <App account={accountHandle(runtime)} color={false} {...props} />
      </KeypressProvider>,
    );
  });
  return instance;
}
