/**
 * The app in a sixel terminal and in a kitty one (emulated: image-terminal.ts), on the reference server's demo
 * organization, whose #design › new office holds a floor plan (a 64×48 PNG), a poll and more.
 * Ink's frames go through the frame writer and the image layer as in the bundle. Over moves,
 * page turns, the help screen, a message's info, messages arriving and the full-size viewer,
 * after every step the screen (text and pictures, cell by cell) is the one a full redraw of
 * that frame gives: the plan is drawn where its reservation is, once, and nowhere else.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { sendMessage } from "../../src/api/routes/messages.js";
import { DEFAULT_SETTINGS } from "../../src/config/settings.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { accountHandle } from "../../src/sync/account-handle.js";
import { ImageLayer } from "../../src/ui/images/image-layer.js";
import { setTerminalGraphics } from "../../src/ui/images/graphics.js";
import { resetScreenImages, screenImages } from "../../src/ui/images/screen-images.js";
import { loadTerminalEncoders } from "../../src/ui/images/terminal-image.js";
import { resetTerminalCapabilities } from "../../src/ui/terminal/capabilities.js";
import { InkImageTerminal } from "../fixtures/ink-image-terminal.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

process.env.CI = "false"; // Ink draws frames only outside CI
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const COLS = 110;
const ROWS = 26;
const CELL = { width: 10, height: 20 };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
  resetScreenImages();
  resetTerminalCapabilities();
});

async function startApp(mode: "sixel" | "kitty") {
  const [{ render }, { App }, { KeypressProvider }] = await Promise.all([import("ink"), import("../../src/ui/App.js"), import("../../src/ui/hooks/use-keypress.js")]);
  setTerminalGraphics({ mode, depth: "truecolor" });
  await loadTerminalEncoders();
  const ctx: ServerFixture = await withServer({ heartbeatMs: 500 });
  const stateDir = await mkdtemp(join(tmpdir(), "termchat-images-"));
  const client = ctx.client();
  const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: client.email }, stateDir });
  await session.machine.start();
  const screen = new InkImageTerminal(COLS, ROWS, CELL, screenImages().layer);
  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(
      <KeypressProvider onAnyKey={() => session.keyPressed()}>
        <App account={accountHandle(session)} color settings={{ ...DEFAULT_SETTINGS, startView: "feed" }} />
      </KeypressProvider>,
      { stdout: screen.stdout as unknown as NodeJS.WriteStream, stdin: screen.stdin as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false },
    );
  });
  cleanup = async () => {
    await act(async () => instance.unmount());
    await session.dispose(1500);
    await ctx.close();
    await rm(stateDir, { recursive: true, force: true });
  };
  const until = async (what: string, check: () => boolean, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (let i = 0; i < 1000 && Date.now() < deadline; i++) {
      await act(async () => {
        await screen.settled();
      });
      if (check()) return;
      await act(async () => {
        await new Promise((r) => setTimeout(r, 20));
      });
    }
    throw new Error(`waited ${timeoutMs} ms for ${what}; screen:\n${screen.term.text().join("\n")}`);
  };
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      await act(async () => {
        screen.type(k);
        await new Promise((r) => setTimeout(r, 15));
      });
    }
    await screen.settled();
  };
  const text = () => screen.term.text().join("\n");
  /** The screen now, and what a full redraw of its frame shows: text and pictures cell by cell. */
  const compare = async (step: string) => {
    const { live, reference } = await screen.compared(new ImageLayer(screenImages().sources));
    expect(live.problems, step).toEqual([]);
    expect(live.text, step).toEqual(reference.text);
    expect(live.screen, step).toEqual(reference.screen);
    expect(live.pictures, step).toEqual(reference.pictures);
    return live.pictures;
  };
  return { ctx, session, screen, until, press, text, compare };
}

/** The pictures' top left cells ("row,col picture"). */
/** The pictures' top left cells ("row,col picture"): a sixel's first cell, or a kitty placement. */
const origins = (pictures: string[]) => pictures.filter((p) => p.endsWith("+0,0") || p.includes(" kitty:")).map((p) => p.replace(/\+0,0$/, "").replace(/ \d+x\d+$/, ""));

/** The cells the pictures cover. */
function cells(pictures: string[]): number {
  let n = 0;
  for (const p of pictures) {
    const kitty = / (\d+)x(\d+)$/.exec(p);
    n += kitty ? Number(kitty[1]) * Number(kitty[2]) : 1;
  }
  return n;
}

describe("pictures in the app", () => {
  it.each(["sixel", "kitty"] as const)("%s: stay on their reservation over moves, popups, arriving messages and the viewer, as a full redraw draws them", async (mode) => {
    const app = await startApp(mode);
    await app.until("the organization", () => /Inbox|connected/.test(app.text()));
    // Find the plan, then go to its topic with it selected.
    await app.press("/", ..."floor plan", "\r");
    await app.until("the search result", () => app.text().includes("▨ floor-plan.png"));
    await app.press("S");
    await app.until("the topic with the plan drawn", () => app.text().includes("new office") && origins(app.screen.term.pictures()).length === 1);
    const first = await app.compare("the topic opened");
    expect(origins(first)).toHaveLength(1);
    // The reservation is 21×8 cells (64×48 pixels at one pixel a column, two a row) and the picture fills it.
    expect(cells(first)).toBe(21 * 8);
    const caption = app.screen.term.text().findIndex((l) => l.includes("▨ floor-plan.png"));
    expect(origins(first)[0]).toMatch(new RegExp(`^${caption + 1},\\d+ ${mode}:`));
    const drawnAtFirst = app.screen.term.takeDrawn();
    expect(drawnAtFirst.length).toBeGreaterThanOrEqual(1);

    const steps: Array<[string, string[]]> = [
      ["next message", ["j"]],
      ["back to the plan", ["k"]],
      ["previous message", ["k"]],
      ["next twice", ["j", "j"]],
      ["the newest", ["G"]],
      ["a page up", ["K"]],
      ["a page down", ["J"]],
      ["back to the plan", ["k", "k", "k"]],
    ];
    for (const [step, keys] of steps) {
      await app.press(...keys);
      const pictures = await app.compare(step);
      expect(origins(pictures).length, step).toBeLessThanOrEqual(1);
    }

    await app.press("?");
    await app.until("the help screen", () => /help|Keys/i.test(app.text()) && app.screen.term.pictures().length === 0);
    expect(await app.compare("help open")).toEqual([]);
    await app.press("\x1b");
    await app.until("the plan back", () => origins(app.screen.term.pictures()).length === 1);
    await app.compare("help closed");

    // The selected message's info.
    await app.until("the plan selected", () => app.text().includes("▨ floor-plan.png"));
    await app.press("i");
    await app.until("the info popup", () => app.screen.term.pictures().length === 0 && /Esc/.test(app.text()));
    expect(await app.compare("info open")).toEqual([]);
    await app.press("\x1b");
    await app.until("the plan back", () => origins(app.screen.term.pictures()).length === 1);
    await app.compare("info closed");

    // Messages arrive in the topic: the pane moves up under the plan.
    const store = app.session.machine.store!;
    const design = [...store.channels.values()].find((c) => c.name === "design")!;
    const other = app.ctx.client(app.ctx.account("member"));
    for (let n = 1; n <= 4; n++) {
      const content = `arriving ${n}\nwith a second line`;
      await act(async () => {
        await sendMessage(other, { type: "stream", to: design.stream_id, topic: "new office", content });
      });
      await app.until(`message ${n} in the store`, () => store.messages.newestIn(design.stream_id, "new office")?.content === content);
      await app.compare(`message ${n} arrived`);
      // To the newest: the pane scrolls, the plan moves up and leaves.
      await app.press("G");
      await app.until(`message ${n} shown`, () => app.text().includes(`arriving ${n}`));
      await app.compare(`message ${n} shown`);
      for (let k = 0; k < 3; k++) {
        await app.press("k");
        await app.compare(`message ${n}, back up ${k + 1}`);
      }
    }
    // The viewer: the plan drawn large by the terminal, over a popup's blank cells; the thumbnail gone.
    for (let i = 0; i < 20 && !selectedIsPlan(app.text()); i++) {
      await app.press("k");
      await app.compare(`up to the plan, ${i + 1}`);
    }
    expect(selectedIsPlan(app.text())).toBe(true);
    await app.press("v");
    await app.until("the viewer", () => /floor-plan\.png +Esc close/.test(app.text()) && origins(app.screen.term.pictures()).length === 1);
    const viewer = await app.compare("viewer open");
    expect(cells(viewer)).toBeGreaterThan(21 * 8);
    expect(app.text()).not.toContain("▀");
    await app.press("\x1b");
    await app.until("the viewer closed", () => !/Esc close/.test(app.text()) && origins(app.screen.term.pictures()).length === 1);
    const after = await app.compare("viewer closed");
    expect(cells(after)).toBe(21 * 8);
  }, 90_000);
});

/** Whether the selected message (gutter ▌) is the one with the plan. */
function selectedIsPlan(text: string): boolean {
  const lines = text.split("\n");
  const caption = lines.findIndex((l) => l.includes("▨ floor-plan.png"));
  return caption >= 0 && lines[caption]!.includes("▌");
}
