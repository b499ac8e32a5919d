/** Opening links: only http(s), never through a shell, the clipboard over SSH; and the links of a message. */
import { describe, expect, it } from "vitest";
import { messageLinks } from "../../src/render/message-links.js";
import { browserCommand, clipboardSequence, headless, launchBrowser, planOpen, webAddress, type Spawner } from "../../src/ui/open-url.js";

const desktop = { DISPLAY: ":0" };

describe("the browser's argument vector", () => {
  it("passes a hostile address as one argument, normalised, to xdg-open", () => {
    const plan = planOpen("https://x/$(touch /tmp/p)`id`;rm -rf ~", desktop, "linux");
    expect(plan).toEqual({ kind: "launch", launch: { command: "xdg-open", args: ["https://x/$(touch%20/tmp/p)%60id%60;rm%20-rf%20~"] } });
  });

  it("refuses what is not an http(s) address: options, files, scripts, other schemes", () => {
    for (const raw of ["-–foo", "--help", "file:///etc/passwd", "javascript:alert(1)", "ssh://host", "/user_uploads/2/x/y", "mailto:a@b.c", ""]) {
      expect(planOpen(raw, desktop, "linux").kind, raw).toBe("refuse");
    }
    expect(webAddress("HTTPS://Example.com/a b")).toBe("https://example.com/a%20b");
  });

  it("uses $BROWSER (its first entry, its own arguments, %s for the address), else open on macOS", () => {
    expect(browserCommand("https://a/", { BROWSER: "firefox --new-tab:chromium" }, "linux")).toEqual({ command: "firefox", args: ["--new-tab", "https://a/"] });
    expect(browserCommand("https://a/", { BROWSER: "w3m -o x %s" }, "linux")).toEqual({ command: "w3m", args: ["-o", "x", "https://a/"] });
    expect(browserCommand("https://a/", {}, "darwin")).toEqual({ command: "open", args: ["https://a/"] });
  });

  it("starts the program without a shell, detached, with its output ignored", async () => {
    const calls: Array<{ command: string; args: string[]; options: object }> = [];
    const spawner: Spawner = (command, args, options) => {
      calls.push({ command, args, options });
      let unrefd = false;
      return {
        once(event, listener) {
          if (event === "spawn") queueMicrotask(() => listener());
          return this;
        },
        unref: () => void (unrefd = !unrefd),
      };
    };
    expect(await launchBrowser({ command: "xdg-open", args: ["https://x/$(id)"] }, spawner)).toEqual({ ok: true });
    expect(calls).toEqual([{ command: "xdg-open", args: ["https://x/$(id)"], options: { shell: false, detached: true, stdio: "ignore" } }]);
    const missing = await launchBrowser({ command: "/nonexistent/browser-xyz", args: ["https://a/"] });
    expect(missing).toMatchObject({ ok: false, message: expect.stringMatching(/^Could not start \/nonexistent\/browser-xyz: .*ENOENT/) });
  });
});

describe("over SSH or without a display", () => {
  it("copies the address with OSC 52 instead of starting a browser", () => {
    expect(headless({ SSH_CONNECTION: "1.2.3.4 5 6.7.8.9 22", DISPLAY: ":0" }, "linux")).toBe(true);
    expect(headless({}, "linux")).toBe(true);
    expect(headless({ WAYLAND_DISPLAY: "wayland-0" }, "linux")).toBe(false);
    expect(headless({}, "darwin")).toBe(false);
    const plan = planOpen("https://chat.example.com/user_uploads/temporary/abc/f.png", {}, "linux");
    expect(plan).toEqual({ kind: "copy", sequence: `\u001b]52;c;${Buffer.from("https://chat.example.com/user_uploads/temporary/abc/f.png").toString("base64")}\u0007` });
  });

  it("sends only base64 in the clipboard sequence, with control characters taken out first", () => {
    const seq = clipboardSequence("https://a/\u001b]0;pwned\u0007x\u009b31m");
    const payload = /^\u001b\]52;c;([A-Za-z0-9+/=]*)\u0007$/.exec(seq)?.[1];
    expect(payload).toBeDefined();
    expect(Buffer.from(payload!, "base64").toString()).toBe("https://a/x");
  });
});

describe("the links of a message", () => {
  it("finds Markdown links, autolinks and bare addresses in order, uploads marked, each once; not inside code", () => {
    const md = [
      "See [the plan](/user_uploads/2/ab/xyz/floor%20plan.png) and <https://example.com/a>.",
      "Also https://example.com/b, and again https://example.com/a",
      "`https://in.code/span` and",
      "```",
      "https://in.fence/block",
      "```",
      "[abs](https://chat.example.com/user_uploads/2/cd/q/list.txt) [x](javascript:alert(1)) ![img](/user_uploads/2/ef/r/pic.jpg)",
    ].join("\n");
    expect(messageLinks(md, "https://chat.example.com/")).toEqual([
      { url: "/user_uploads/2/ab/xyz/floor%20plan.png", label: "the plan", upload: true },
      { url: "https://example.com/a", label: "https://example.com/a", upload: false },
      { url: "https://example.com/b", label: "https://example.com/b", upload: false },
      { url: "/user_uploads/2/cd/q/list.txt", label: "abs", upload: true },
      { url: "/user_uploads/2/ef/r/pic.jpg", label: "img", upload: true },
    ]);
    expect(messageLinks("[](/user_uploads/2/a/b/na%20me.txt)")[0]?.label).toBe("na me.txt");
  });
});
