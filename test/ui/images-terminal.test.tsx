/**
 * A terminal that speaks the kitty graphics protocol, emulated: it answers
 * the start-up query, then the message pane draws an image whose file (a
 * JPEG with a hostile comment) and link text (escape sequences) came from
 * the server. The terminal gets the kitty escapes we made from pixels, at the
 * reserved rows, and none of the server's bytes.
 */
import { EventEmitter } from "node:events";
import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";

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
    const { detectTerminalGraphics } = await import("../../src/ui/images/detect.js");
    const { setTerminalGraphics } = await import("../../src/ui/images/graphics.js");
    const term = new FakeTerminal();
    const graphics = await detectTerminalGraphics(term.stdin, term.stdout, { TERM: "xterm-kitty", COLORTERM: "truecolor" });
    expect(graphics).toEqual({ mode: "kitty", depth: "truecolor" });
    setTerminalGraphics(graphics);

    const [{ render, Box, Text }, React, eg, { loadMarkdown }, layout, { MessagePane }, { ImagePreviews }, { imagePreviewLines }, { loadTerminalEncoders }, { withImageOverlay, resetOverlay }, theme] = await Promise.all([
      import("ink"),
      import("react"),
      import("../fixtures/example.js"),
      import("../../src/render/markdown.js"),
      import("../../src/ui/message-layout.js"),
      import("../../src/ui/components/MessagePane.js"),
      import("../../src/ui/images/image-previews.js"),
      import("../../src/ui/images/preview-lines.js"),
      import("../../src/ui/images/terminal-image.js"),
      import("../../src/ui/images/overlay.js"),
      import("../../src/ui/theme.js"),
    ]);
    await Promise.all([loadMarkdown(), loadTerminalEncoders()]);
    resetOverlay();

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

    const app = render(
      React.createElement(
        theme.ThemeContext.Provider,
        { value: theme.resolveTheme("dark", undefined, 3) },
        React.createElement(Box, { flexDirection: "column" }, React.createElement(Text, null, "title row"), React.createElement(MessagePane, { blocks, selectedId: m.id, unread: new Set<number>(), height: 20, width: 60, focused: true })),
      ),
      { stdout: withImageOverlay(term.stdout) as unknown as NodeJS.WriteStream, stdin: term.stdin as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
    );
    try {
      const at = await until("the kitty placement", () => {
        const i = term.writes.findIndex((w) => w.includes("\x1b_Ga=p,"));
        return i >= 0 ? i : undefined;
      });
      const overlay = term.writes[at]!;
      const frame = term.writes.slice(0, at).findLast((w) => w.endsWith("\n"))!;
      const all = term.writes.join("");

      // Nothing of the server's bytes or escapes reached the terminal.
      expect(all).not.toContain("pwned");
      expect(all).not.toContain("\x1b]0;");
      expect(all).not.toContain("\x1b]52;");
      expect(all).not.toContain("\x1bPevil");
      expect(all).not.toContain("\u009b");
      expect(all).toContain("▨ photo.jpg");

      // Our escapes: the pixels sent once under an id (RGBA we decoded), then placed over the cells.
      const transmit = /\x1b_Ga=t,f=32,s=(\d+),v=(\d+),i=(\d+),q=2,m=[01];/.exec(overlay);
      expect(transmit).not.toBeNull();
      const id = transmit![3];
      const place = new RegExp(`\\x1b_Ga=p,i=${id},c=(\\d+),r=(\\d+),C=1,q=2\\x1b\\\\`).exec(overlay);
      expect(place).not.toBeNull();
      expect([Number(place![1]), Number(place![2])]).toEqual([20, 5]); // 20×10 pixels: 20 columns, 5 rows
      // Every payload byte is base64 of pixels.
      for (const m2 of overlay.matchAll(/\x1b_G[^;]*;([^\x1b]*)\x1b\\/g)) expect(m2[1]).toMatch(/^[A-Za-z0-9+/=]*$/);

      // Where: the cursor saved, moved up to the first reserved row (just below the caption) and two columns in.
      const lines = frame.slice(0, -1).split("\n");
      const caption = lines.findIndex((l) => l.includes("▨ photo.jpg"));
      expect(caption).toBeGreaterThan(0);
      const up = lines.length - (caption + 1);
      expect(overlay.startsWith("\x1b7")).toBe(true);
      expect(overlay).toContain(`\x1b[${up}A\r\x1b[2C\x1b_Ga=t,`);
      expect(overlay.endsWith("\x1b8")).toBe(true);
      // The reserved rows are blank after the gutter: the text layer does not cover the image.
      for (let r = caption + 1; r <= caption + 5; r++) expect(lines[r]!.replace(/\x1b\[[\d;]*m/g, "").slice(1).trim()).toBe("");
    } finally {
      app.unmount();
      resetOverlay();
    }
  });
});
