/**
 * A terminal that speaks the kitty graphics protocol, emulated: it answers
 * the start-up query, then the message pane draws an image whose file (a
 * JPEG with a hostile comment) and link text (escape sequences) came from
 * the server. The terminal (emulated: test/fixtures/image-terminal.ts) gets the
 * kitty escapes we made from pixels, placed at the reserved cells, and none of
 * the server's bytes.
 */
import { EventEmitter } from "node:events";
import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { InkImageTerminal } from "../fixtures/ink-image-terminal.js";

process.env.CI = "false"; // Ink draws frames only outside CI

const HOSTILE = "\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07";

class FakeTerminal {
  private readonly buffered: Buffer[] = [];
  readonly stdin = Object.assign(new EventEmitter(), { isTTY: true, isRaw: false, setRawMode: () => undefined, read: () => this.buffered.shift() ?? null });
  readonly writes: string[] = [];
  readonly stdout = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns: 80,
    rows: 24,
    write: (chunk: string | Uint8Array) => {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("latin1");
      this.writes.push(text);
      // A kitty-capable terminal answers the graphics query, then the device attributes.
      if (text.includes("\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\")) {
        queueMicrotask(() => {
          this.buffered.push(Buffer.from("\x1b_Gi=31;OK\x1b\\\x1b[?62;22c"));
          this.stdin.emit("readable");
        });
      }
      return true;
    },
  });
}

async function until<T>(what: string, get: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (let i = 0; i < 1000 && Date.now() < deadline; i++) {
    // Polls a condition: a short pause between looks, bounded by count and time.
    const v = get();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("images in a terminal with the kitty graphics protocol (emulated)", () => {
  it("detects kitty, then writes our kitty escapes over the reserved rows, nothing of the server's", async () => {
    const { probeTerminal } = await import("../../src/ui/terminal/probe.js");
    const { createInputParser } = await import("../../src/ui/ink-frame/input-parser.js");
    const { terminalGraphics } = await import("../../src/ui/images/graphics.js");
    const term = new FakeTerminal();
    // The terminal probe, its answers read through the input parser (as Ink's reader reads them).
    const parser = createInputParser();
    const read = () => {
      for (let chunk = term.stdin.read(); chunk !== null; chunk = term.stdin.read()) parser.push(chunk.toString());
    };
    term.stdin.on("readable", read);
    const probe = probeTerminal({ write: (b) => term.stdout.write(b), env: { TERM: "xterm-kitty", COLORTERM: "truecolor" }, images: true, size: () => ({ columns: 80, rows: 24 }) });
    await probe.decided;
    probe.stop();
    term.stdin.off("readable", read);
    const graphics = terminalGraphics();
    expect(graphics).toEqual({ mode: "kitty", depth: "truecolor" });

    const [{ render, Box, Text }, React, eg, { loadMarkdown }, layout, { MessagePane }, { ImagePreviews }, { imagePreviewLines }, { loadTerminalEncoders }, { screenImages, resetScreenImages }, theme] = await Promise.all([
      import("ink"),
      import("react"),
      import("../fixtures/example.js"),
      import("../../src/render/markdown.js"),
      import("../../src/ui/message-layout.js"),
      import("../../src/ui/components/MessagePane.js"),
      import("../../src/ui/images/image-previews.js"),
      import("../../src/ui/images/preview-lines.js"),
      import("../../src/ui/images/terminal-image.js"),
      import("../../src/ui/images/screen-images.js"),
      import("../../src/ui/theme.js"),
    ]);
    await Promise.all([loadMarkdown(), loadTerminalEncoders()]);
    resetScreenImages();

    // The server's file: a 20×10 JPEG, red over blue, carrying escape sequences in a comment.
    const data = Buffer.alloc(20 * 10 * 4);
    for (let i = 0; i < 200; i++) data.set(i < 100 ? [230, 20, 20, 255] : [20, 20, 230, 255], i * 4);
    const file = jpeg.encode({ width: 20, height: 10, data, comments: [HOSTILE] } as Parameters<typeof jpeg.encode>[0], 90).data;
    expect(file.includes(Buffer.from(HOSTILE))).toBe(true);
    const fetched: string[] = [];
    const previews = new ImagePreviews(async (path) => {
      fetched.push(path);
      return file;
    });

    eg.resetIds();
    const store = eg.store();
    const label = "\x07\x1bPevil\x1b\\\u009b2Jphoto.jpg\x1b7";
    const m = eg.streamMessage({ content: `look: [${label}](/user_uploads/2/ab/photo.jpg)` });
    const o = { width: 60, showRecipients: true, color: true, timeZone: "UTC", images: (msg: typeof m, width: number) => imagePreviewLines({ previews, graphics }, msg, width) };
    const ctx = layout.renderContext(store, true, "UTC", false);
    // First layout: a placeholder, and the fetch starts.
    const first = layout.layoutWindow(store, [m], 0, 20, o, ctx).blocks[0]!.lines.map((l) => l.text);
    expect(first.some((t) => t.includes("(loading preview…)"))).toBe(true);
    await until("the image decoded", () => previews.get("/user_uploads/2/ab/photo.jpg").status !== "loading");
    expect(previews.get("/user_uploads/2/ab/photo.jpg")).toMatchObject({ status: "ready" });
    expect(fetched).toEqual(["/user_uploads/2/ab/photo.jpg"]);
    const { blocks } = layout.layoutWindow(store, [m], 0, 20, o, ctx);

    // The pane in a kitty terminal: Ink's frames through the frame writer and the image layer.
    const screen = new InkImageTerminal(80, 24, { width: 10, height: 20 }, screenImages().layer);
    const app = render(
      React.createElement(
        theme.ThemeContext.Provider,
        { value: theme.resolveTheme("dark", undefined, 3) },
        React.createElement(Box, { flexDirection: "column" }, React.createElement(Text, null, "title row"), React.createElement(MessagePane, { blocks, selectedId: m.id, unread: new Set<number>(), height: 20, width: 60, focused: true })),
      ),
      { stdout: screen.stdout as unknown as NodeJS.WriteStream, stdin: screen.stdin as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false },
    );
    try {
      await until("the kitty placement", () => screen.bytes.some((w) => w.includes("\x1b_Ga=p,")));
      await screen.settled();
      const all = screen.bytes.join("");

      // Nothing of the server's bytes or escapes reached the terminal.
      expect(all).not.toContain("pwned");
      expect(all).not.toContain("\x1b]0;");
      expect(all).not.toContain("\x1b]52;");
      expect(all).not.toContain("\x1bPevil");
      expect(all).not.toContain("\u009b");
      expect(all).toContain("▨ photo.jpg");

      // Our escapes: the pixels sent once under an id (RGBA we decoded and scaled to the cells), then placed over the cells.
      const transmits = [...all.matchAll(/\x1b_Ga=t,f=32,s=(\d+),v=(\d+),i=(\d+),q=2,m=[01];/g)];
      expect(transmits).toHaveLength(1);
      // 20×10 pixels in 20×5 cells of 10×20 pixels: scaled to 200×100.
      expect([transmits[0]![1], transmits[0]![2]]).toEqual(["200", "100"]);
      expect(all).toMatch(new RegExp(`\\x1b_Ga=p,i=${transmits[0]![3]},p=\\d+,c=20,r=5,C=1,q=2\\x1b\\\\`));
      // Every payload byte is base64 of pixels.
      for (const m2 of all.matchAll(/\x1b_G[^;\x1b]*;([^\x1b]*)\x1b\\/g)) expect(m2[1]).toMatch(/^[A-Za-z0-9+/=]*$/);

      // Where: just below the caption, two columns into the pane; the rows under it blank.
      const lines = screen.term.text();
      const caption = lines.findIndex((l) => l.includes("▨ photo.jpg"));
      expect(caption).toBeGreaterThan(0);
      expect(screen.term.pictures()).toEqual([expect.stringMatching(new RegExp(`^${caption + 1},2 kitty:\\w+ 20x5$`))]);
      for (let r = caption + 1; r <= caption + 5; r++) expect(lines[r]!.slice(1).trim()).toBe("");
    } finally {
      app.unmount();
      resetScreenImages();
    }
  });
});
