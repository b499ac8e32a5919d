/** The status line while the screen shows the last run's state (the local cache). */
import { render } from "ink-testing-library";
import { expect, it } from "vitest";
import { StatusLine, connectionLabel } from "../../src/ui/components/StatusLine.js";

it("says the screen is being updated, or offline, while it shows the cached state", () => {
  expect(connectionLabel({ kind: "connecting" }, true).text).toBe("updating… (showing the last run's state)");
  expect(connectionLabel({ kind: "reconnecting", attempt: 3, error: "cannot reach the server" }, true).text).toBe(
    "offline: showing the last run's state; reconnecting… (cannot reach the server)",
  );
  // The server's own state: the usual words.
  expect(connectionLabel({ kind: "connecting" }).text).toBe("connecting…");
  expect(connectionLabel({ kind: "live" }, false).text).toBe("● connected");
  expect(connectionLabel({ kind: "failed", error: "refused" }, true).text).toBe("✖ refused");
});

it("draws the mark in the status line", () => {
  const { lastFrame, unmount } = render(<StatusLine state={{ kind: "connecting" }} cached organization="Org" user="Me" width={100} />);
  expect(lastFrame()).toMatch(/^updating… \(showing the last run's state\)\s+Org · Me · \? help/);
  unmount();
});
