/**
 * The built binary with --demo in a real terminal: the screen shows the
 * organization, live messages arrive without a key press, and a reply typed
 * in the compose box reaches the server.
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

describe("termchat --demo in tmux", () => {
  it("shows channels and messages, receives live messages and sends a reply", async () => {
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    session = await startApp(["--demo", "--port", String(port)]);
    await session.waitFor(/connected/, { timeoutMs: 15_000 });
    // It opens on the owner's home view, the Inbox: unread conversations with their counts.
    const screen = await session.waitFor(/Inbox {2}\d+ unread/);
    expect(screen).toMatch(/release 2\.4 ★\s+@ \d+/);

    // The sidebar lists the owner's channels; the combined feed shows messages.
    const owner = await apiAs(site, "maya@lighthouse.test");
    const reg = await owner("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
    const names = (reg.subscriptions as Array<{ name: string; is_archived?: boolean }>).map((s) => s.name);
    for (const name of names.slice(0, 5)) expect(screen).toContain(name);
    expect(screen).toContain("Combined feed");

    // Open the feed (a) at its newest message; another user posts over HTTP: it shows up with no key press.
    await session.sendKeys("a");
    await session.waitFor(/\w+ \w+ {2}(Nov \d+ )?\d{1,2}:\d{2}/); // its messages are in
    await session.sendKeys("G");
    const omar = await apiAs(site, "omar@lighthouse.test");
    const general = (reg.subscriptions as Array<{ name: string; stream_id: number }>).find((s) => s.name === "general")!;
    const text = `live check ${Date.now() % 100000}`;
    const posted = await omar("POST", "messages", { type: "stream", to: String(general.stream_id), topic: "e2e", content: text });
    expect(posted.result).toBe("success");
    await session.waitFor(text, { timeoutMs: 5000 });

    // Reply to the newest message (Omar's), and see the reply on screen and on the server.
    await session.sendKeys("r");
    await session.waitFor("#general > e2e");
    const reply = `reply from the terminal ${Date.now() % 100000}`;
    await session.type(reply);
    await session.waitFor(reply);
    await session.sendKeys("Enter");
    await session.waitForGone("Enter send");
    await session.waitFor(reply);
    const check = await omar("GET", "messages", {
      anchor: "newest",
      num_before: "5",
      num_after: "0",
      narrow: JSON.stringify([
        { operator: "channel", operand: general.stream_id },
        { operator: "topic", operand: "e2e" },
      ]),
      apply_markdown: "false",
    });
    const contents = (check.messages as Array<{ content: string; sender_email: string }>).map((m) => [m.sender_email, m.content]);
    expect(contents).toContainEqual(["maya@lighthouse.test", reply]);
  });

  it("explains a bad command line and exits with status 2", async () => {
    session = await startApp(["--no-such-flag"]);
    const status = await session.waitForExit({ timeoutMs: 10_000 });
    expect(status).toBe(2);
    const screen = await session.capture();
    expect(screen).toContain("termchat: Unknown option '--no-such-flag'");
    expect(screen).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });
});
