/**
 * The jump finder through the UI: the Finder popup (src/ui/popups/Finder.tsx) mounted
 * with Ink on a fake 120×40 TTY over a store loaded as in the finder bench, and the same
 * queries typed a key at a time. For each key: the time from writing it to stdin to the
 * frame that shows the new list (the index's query, the rows' layout and Ink's frame).
 * Keys are spaced past Ink's render throttle, so it is the work that is measured.
 */
import "./launcher-flags.js"; // first: V8 set as bin/termchat.cjs sets it
import { render } from "ink";
import { JumpIndex } from "../src/model/jump-index.js";
import { KeypressProvider } from "../src/ui/hooks/use-keypress.js";
import { defaultKeymap } from "../src/ui/hooks/use-ui-state.js";
import { Finder } from "../src/ui/popups/Finder.js";
import { PopupHost } from "../src/ui/popups/PopupHost.js";
import { SCREENS } from "../src/ui/screens.js";
import { fakeStdin } from "./fake-stdin.js";
import { FakeTty, pressForFrame } from "./fake-tty.js";
import { finderData } from "./finder-data.js";
import { percentile, printFigure } from "./util.js";

const COLS = 120;
const ROWS = 40;
const GAP_MS = 40;
const FRAME_TIMEOUT_MS = 2_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const { loadedStore, queries: queriesFor, stop } = await finderData(process.argv[2] ?? "large");
const store = loadedStore();
const index = new JumpIndex(store, SCREENS.map((s) => ({ id: s.id, label: s.label })));
// The index's own share of each keystroke, timed inside the same run (the rest is the UI's).
const queryTimes: number[] = [];
const query = index.query.bind(index);
index.query = (raw, limit) => {
  const t0 = performance.now();
  const r = query(raw, limit);
  queryTimes.push(performance.now() - t0);
  return r;
};
const keymap = defaultKeymap().keymap;
const stdout = new FakeTty(COLS, ROWS);
const stdin = fakeStdin();
const finder = { id: 1, render: (close: () => void) => <Finder index={index} store={store} keymap={keymap} close={close} go={() => undefined} /> };
const instance = render(
  <KeypressProvider>
    <PopupHost stack={[finder]} onClose={() => undefined} width={COLS - 34} height={ROWS - 4} />
  </KeypressProvider>,
  { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
);

const press = (key: string) => pressForFrame(stdout, stdin, key, GAP_MS, FRAME_TIMEOUT_MS);

await sleep(500);
// The first frame is drawn whole (later ones only where they differ).
const shown = stdout.last.includes("Go to");
const times: number[] = [];
let missed = 0;
for (let round = 0; round < 2; round++) {
  for (const q of queriesFor(store)) {
    for (const ch of q) {
      const ms = await press(ch);
      if (ms === undefined) missed++;
      else times.push(ms);
    }
    await press("\u0015"); // Ctrl-U: the box emptied before the next query
  }
}
printFigure(`keys typed into the finder (${missed} without a frame)${shown ? "" : " — THE FINDER WAS NOT DRAWN"}`, times.length, "");
printFigure("keystroke to the finder's list drawn, p50", percentile(times, 50).toFixed(2), "ms");
printFigure("keystroke to the finder's list drawn, p95", percentile(times, 95).toFixed(2), "ms (target ≤ 16)");
printFigure("keystroke to the finder's list drawn, max", Math.max(...times).toFixed(2), "ms");
printFigure(`of which the index's query, p50 / p95 (${queryTimes.length} queries)`, `${percentile(queryTimes, 50).toFixed(2)} / ${percentile(queryTimes, 95).toFixed(2)}`, "ms");
instance.unmount();
await stop();
