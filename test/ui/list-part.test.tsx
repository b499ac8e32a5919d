/**
 * The shared list part: the keys every list answers (scope "list", or
 * "list.filter" where letters type into a filter), its window, a list's own
 * actions before the shared ones, and a rebinding that moves every list.
 */
import { Text } from "ink";
import { afterEach, describe, expect, it } from "vitest";
import { useScreenState } from "../../src/ui/contexts.js";
import { Keymap } from "../../src/ui/keymap.js";
import { FEATURES } from "../../src/ui/features/index.js";
import { listStep, useList, windowStart } from "../../src/ui/list/list-part.js";
import { fakeSession, renderOnFake } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

const FRUIT = ["apple", "apricot", "banana", "blueberry", "cherry", "date", "elderberry", "fig", "grape", "kiwi", "lemon", "mango"];

/** A list of fruit, 4 rows high, in a scope of its own that falls through as the popups' do. */
function Fruit({ scope, keymap, onChoose }: { scope: string; keymap?: Keymap; onChoose: (f: string) => void }) {
  const state = useScreenState();
  const km = keymap ?? state.keymap;
  const rowsFor = (text: string) => FRUIT.filter((f) => f.includes(text));
  const list = useList({
    scope,
    keymap: km,
    filter: scope === "palette",
    count: () => rowsFor(list.model.filter.text).length,
    page: 4,
    onAction: (action, at) => {
      if (action !== "palette.run" && action !== "drafts.resume") return false;
      onChoose(rowsFor(list.model.filter.text)[at]!);
      return true;
    },
  });
  const rows = rowsFor(list.model.filter.text);
  const at = list.at(rows.length);
  const start = windowStart(at, rows.length, 4);
  return (
    <>
      <Text>{`filter: ${list.model.filter.text}`}</Text>
      {rows.slice(start, start + 4).map((f, i) => (
        <Text key={f}>{`${start + i === at ? ">" : " "} ${f}`}</Text>
      ))}
    </>
  );
}

const chosenIn = (frame: string) => /> (\w+)/.exec(frame)?.[1];

describe("the list part", () => {
  it("moves by rows and pages within the list, and keeps the cursor's row in its window", () => {
    expect(listStep("list.down", 0, 5, 3)).toBe(1);
    expect(listStep("list.up", 0, 5, 3)).toBe(0);
    expect(listStep("list.pageDown", 1, 5, 3)).toBe(4);
    expect(listStep("list.last", 1, 5, 3)).toBe(4);
    expect(listStep("filter.down", 4, 5, 3)).toBe(4);
    expect(listStep("list.down", 1, 12, 3, 4)).toBe(5); // a grid moves by a row of cells
    expect(listStep("drafts.resume", 1, 5, 3)).toBeUndefined();
    expect(windowStart(0, 12, 4)).toBe(0);
    expect(windowStart(6, 12, 4)).toBe(4);
    expect(windowStart(11, 12, 4)).toBe(8);
  });

  it("a list in the shared scope answers j/k, J/K and G/g, and Enter is its own", async () => {
    const fake = fakeSession();
    const chosen: string[] = [];
    const screen = await renderOnFake(fake, <Fruit scope="popup.drafts" onChoose={(f) => chosen.push(f)} />);
    unmount = screen.unmount;
    await screen.press("j", "j");
    expect(chosenIn(screen.frame())).toBe("banana");
    await screen.press("J");
    expect(chosenIn(screen.frame())).toBe("elderberry");
    await screen.press("G");
    expect(chosenIn(screen.frame())).toBe("mango");
    expect(screen.frame()).not.toContain("apple"); // scrolled out of the window
    await screen.press("k", "g");
    expect(chosenIn(screen.frame())).toBe("apple");
    await screen.press("\r");
    expect(chosen).toEqual(["apple"]);
  });

  it("a filtered list types letters into its filter and moves with the arrows; Ctrl-U clears", async () => {
    const fake = fakeSession();
    const chosen: string[] = [];
    const screen = await renderOnFake(fake, <Fruit scope="palette" onChoose={(f) => chosen.push(f)} />);
    unmount = screen.unmount;
    await screen.press("b", "e", "r");
    expect(screen.frame()).toContain("filter: ber");
    expect(chosenIn(screen.frame())).toBe("blueberry");
    await screen.press("\u001b[B"); // ↓
    expect(chosenIn(screen.frame())).toBe("elderberry");
    await screen.press("j"); // a letter, not a move
    expect(screen.frame()).toContain("filter: berj");
    await screen.press("\u0015", "\u000e"); // Ctrl-U, Ctrl-N
    expect(screen.frame().split("\n")[0]?.trim()).toBe("filter:");
    expect(chosenIn(screen.frame())).toBe("apricot");
    await screen.press("\r");
    expect(chosen).toEqual(["apricot"]);
  });

  it("rebinding list.down moves every list that falls through to it", async () => {
    const { keymap, problems } = Keymap.withOverrides(
      FEATURES.flatMap((f) => f.bindings),
      { "list.down": ["n"] },
    );
    expect(problems).toEqual([]);
    for (const scope of ["popup.help", "popup.people", "popup.drafts", "screen"]) expect(keymap.action(scope, "n")).toBe("list.down");
    const fake = fakeSession();
    const screen = await renderOnFake(fake, <Fruit scope="popup.help" keymap={keymap} onChoose={() => undefined} />);
    unmount = screen.unmount;
    await screen.press("j");
    expect(chosenIn(screen.frame())).toBe("apple");
    await screen.press("n");
    expect(chosenIn(screen.frame())).toBe("apricot");
  });
});
