/**
 * The views follow the store, but a burst of changes (a busy organization: fifty messages a
 * second) is drawn together: the first change at once, the rest once the burst's span is over,
 * and what is drawn last is the store as it is.
 */
import { Text } from "ink";
import { render } from "ink-testing-library";
import { act } from "react";
import { describe, expect, it } from "vitest";
import { useStoreVersion } from "../../src/ui/hooks/use-store.js";
import * as eg from "../fixtures/example.js";

describe("following the store", () => {
  it("draws the first change at once and a burst of changes together, ending on the latest", async () => {
    const store = eg.store();
    let renders = 0;
    function Probe() {
      const version = useStoreVersion(store);
      renders++;
      return <Text>version {version}</Text>;
    }
    let app!: ReturnType<typeof render>;
    await act(async () => {
      app = render(<Probe />);
    });
    const start = renders;
    // One change after a quiet spell: drawn without waiting.
    await act(async () => store.changed());
    expect(app.lastFrame()).toBe(`version ${store.version}`);
    // Twenty more, a few milliseconds apart: far fewer frames than changes.
    await act(async () => {
      for (let i = 0; i < 20; i++) {
        store.changed();
        await new Promise((r) => setTimeout(r, 5));
      }
      await new Promise((r) => setTimeout(r, 250));
    });
    expect(app.lastFrame()).toBe(`version ${store.version}`);
    expect(renders - start).toBeLessThanOrEqual(10);
    app.unmount();
  });
});
