/**
 * The built binary on the demo in a real xterm with sixel (xterm.ts: Xvfb, keys through a pty
 * relay, the window read back as pixels). The floor plan in #design › new office is drawn by
 * xterm from our sixel; over moves, page turns, the help screen, a message's info, messages
 * arriving and the full-size viewer, each screen is pixel for pixel the one xterm shows after the
 * app redraws its whole frame (the window made one column narrower and back).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiAs, BIN, ensureBuilt, freePort } from "./app.js";
import { hasXterm, shotDifference, XtermScreen, type Shot } from "./xterm.js";

const COLS = 110;
const ROWS = 30;
let screen: XtermScreen | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await screen?.stop();
  screen = undefined;
});

/** Our sixel palette's levels as xterm shows them (red and blue: 6, green: 7). */
const RB = new Set([0, 51, 102, 153, 204, 255]);
const G = new Set([0, 43, 84, 127, 171, 212, 255]);

/** The cells holding pixels of our sixel palette (not black, white or a primary, which text uses too): rows and columns from the top left. */
function pictureCells(s: Shot): { top: number; left: number; rows: number; cols: number } | undefined {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < s.height; y++) {
    for (let x = 0; x < s.width; x++) {
      const c = s.at(x, y);
      const [r, g, b] = [c >> 16, (c >> 8) & 255, c & 255];
      if (!RB.has(r) || !G.has(g) || !RB.has(b) || [r, g, b].every((c) => c === 0 || c === 255)) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  if (x1 < 0) return undefined;
  // The cells start after xterm's border, as wide on each side.
  const border = (s.width - COLS * 10) / 2;
  const cell = (v: number, size: number) => Math.floor((v - border) / size);
  return { top: cell(y0, 20), left: cell(x0, 10), rows: cell(y1, 20) - cell(y0, 20) + 1, cols: cell(x1, 10) - cell(x0, 10) + 1 };
}

function colours(s: Shot): number {
  const seen = new Set<number>();
  for (let y = 0; y < s.height; y++) for (let x = 0; x < s.width; x++) seen.add(s.at(x, y));
  return seen.size;
}

describe("pictures in a real xterm (sixel)", () => {
  it("each screen is the one a whole redraw gives, over moves, popups, arriving messages and the viewer", async () => {
    const missing = await hasXterm();
    if (missing.length > 0) throw new Error(`this test needs ${missing.join(", ")} (Debian: xterm xvfb xdotool x11-apps xfonts-base python3; .ci/run installs them)`);
    const port = await freePort();
    screen = await XtermScreen.start([process.execPath, BIN, "--demo", "--port", String(port)], { cols: COLS, rows: ROWS });
    const s = screen;
    // The first screen: the app's text, in several colours.
    let now = await s.settled();
    for (let i = 0; i < 100 && colours(now) < 5; i++) now = await s.settled();
    expect(pictureCells(now)).toBeUndefined();
    const post = await apiAs(`http://127.0.0.1:${port}`, "omar@lighthouse.test");

    /** Does `act`, waits for the screen to settle (to have changed, unless `expectChange` is false; to be `ready`), compares it with a whole redraw. */
    const step = async (what: string, act: () => Promise<unknown>, expectChange = true, ready: (shot: Shot) => boolean = () => true) => {
      const before = await s.shot();
      await act();
      now = await s.settled(expectChange ? before : undefined);
      // A picture made for the first time (the viewer's) comes a moment after its frame.
      for (let i = 0; i < 20 && !ready(now); i++) now = await s.settled();
      // The app draws its whole frame again: narrower, then back.
      await s.resize(COLS - 1, ROWS);
      const redrawn = await s.resize(COLS, ROWS);
      expect(shotDifference(now, redrawn), what).toBe(0);
      return pictureCells(now);
    };

    // Find the plan, then its topic with it selected.
    // The search prompt with the words typed: the screen changes (else the keys went nowhere).
    const first = now;
    await s.type("/floor plan");
    const typed = await s.settled(first);
    await s.keys("Return");
    // The results come from the server: wait for them (the plan's message, with its picture)
    // rather than for the first still screen, which may be the search still under way.
    now = await s.settled(typed, 30_000);
    for (let i = 0; i < 40 && pictureCells(now) === undefined; i++) now = await s.settled();
    expect(pictureCells(now), "the search result shows the plan").toMatchObject({ rows: 8, cols: 21 });
    const plan = await step("the topic opened", () => s.keys("S"));
    // 64×48 pixels over 21×8 cells of 10×20 pixels: 210×157, the width filled.
    expect(plan).toMatchObject({ rows: 8, cols: 21 });

    expect(await step("next message", () => s.keys("j"))).toEqual(plan);
    expect(await step("back to the plan", () => s.keys("k"))).toEqual(plan);
    await step("the newest", () => s.keys("G"));
    await step("a page up", () => s.keys("K"));
    expect(await step("back to the plan", () => s.keys("k", "k", "k", "k", "k"), false)).toEqual(plan);

    expect(await step("help", () => s.keys("question"))).toBeUndefined();
    expect(await step("help closed", () => s.keys("Escape"))).toEqual(plan);
    expect(await step("info", () => s.keys("i"))).toBeUndefined();
    expect(await step("info closed", () => s.keys("Escape"))).toEqual(plan);

    await step("a message arrives", () => post("POST", "messages", { type: "stream", to: "design", topic: "new office", content: "arriving one\nsecond line" }));
    await step("to the newest", () => s.keys("G"));
    await step("another arrives", () => post("POST", "messages", { type: "stream", to: "design", topic: "new office", content: "arriving two\nsecond line" }));
    // The pane scrolls: the plan moves up (or off the screen).
    const moved = await step("to the newest again", () => s.keys("G"), false);
    expect(moved === undefined || moved.top < plan!.top).toBe(true);
    expect(await step("up to the plan", () => s.keys("k", "k", "k", "k", "k", "k", "k", "k"))).toEqual(plan);

    // The viewer: the plan drawn by xterm, larger, in the popup; then the thumbnail back in its place.
    const viewer = await step("the viewer", () => s.keys("v"), true, (shot) => (pictureCells(shot)?.rows ?? 0) > 8);
    expect(viewer!.rows).toBeGreaterThan(plan!.rows);
    expect(viewer!.cols).toBeGreaterThan(plan!.cols);
    await step("the viewer closed", () => s.keys("Escape"));
  }, 240_000);
});
