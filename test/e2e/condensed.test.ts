/**
 * The built binary in tmux: a long message another member posts is drawn condensed (its
 * beginning, then how much is left out and the key), and `-` shows it whole.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiAs, ensureBuilt, freePort, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
});

describe("a long message", () => {
  it("is drawn condensed, and whole after -", async () => {
    const port = await freePort();
    session = await startApp(["--demo", "--port", String(port)]);
    await session.waitFor(/connected/, { timeoutMs: 15_000 });
    const omar = await apiAs(`http://127.0.0.1:${port}`, "omar@lighthouse.test");
    // Twenty paragraphs of 300 characters: the first few are drawn, the rest wait for `-`.
    const paragraphs = Array.from({ length: 20 }, (_, i) => `para${String(i).padStart(2, "0")} ${"quokka logbook entry ".repeat(14)}`.slice(0, 300));
    const posted = await omar("POST", "messages", { type: "stream", to: "general", topic: "long read", content: paragraphs.join("\n") });
    expect(posted.result).toBe("success");

    await session.sendKeys("/");
    await session.waitFor("channel:name");
    await session.type("logbook");
    await session.sendKeys("Enter");
    let screen = await session.waitFor(/more characters · - shows all/, { timeoutMs: 15_000 });
    expect(screen).toContain("para00");
    expect(screen).not.toContain("para06");

    await session.sendKeys("-");
    screen = await session.waitFor("para06", { timeoutMs: 10_000 });
    expect(screen).toContain("Shown whole (- condenses it again)");
    expect(screen).not.toContain("more characters");
  });
});
