/**
 * A navigation journey with the built binary in an 80×24 tmux terminal:
 * start, open the Inbox, open a topic from it, reply; the reply reaches the
 * server (checked over HTTP as another user).
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

describe("navigation in an 80×24 terminal", () => {
  it("Inbox → a topic → reply, and the reply is on the server", async () => {
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    session = await startApp(["--demo", "--port", String(port)], { cols: 80, rows: 24 });
    await session.waitFor(/connected/, { timeoutMs: 15_000 });

    await session.sendKeys("I");
    await session.waitFor(/Inbox {2}\d+ unread/);
    // The people's names come with the user list, right after the first screen.
    const inbox = await session.waitFor(/@ Omar Haddad\s+1/);
    // The narrow sidebar (22 columns) leaves the Inbox room for its rows and counts.
    expect(inbox).toMatch(/release 2\.4 ★\s+@ 4/);
    for (const line of inbox.split("\n")) expect(line.length).toBeLessThanOrEqual(80);

    // The cursor (▌) starts on the first conversation; each key waits for the cursor to move, as a reader would.
    await session.waitFor(/▌ @ Lena Fischer/);
    await session.sendKeys("j");
    await session.waitFor(/▌ @ Omar Haddad/);
    await session.sendKeys("j");
    await session.waitFor(/▌▾ #engineering/);
    await session.sendKeys("j");
    await session.waitFor(/▌ {4}release 2\.4 ★/);
    await session.sendKeys("Enter");
    await session.waitFor("#engineering > release 2.4");
    await session.waitFor(/Priya Raman/);

    await session.sendKeys("r");
    await session.waitFor("Enter send");
    const reply = `ok ${Date.now() % 100000}`; // short: the topic's saved draft comes first in the box
    await session.type(reply);
    await session.waitFor(reply);
    await session.sendKeys("Enter");
    await session.waitForGone("Enter send");
    await session.waitFor(reply);

    const ben = await apiAs(site, "ben@lighthouse.test");
    const reg = await ben("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
    const engineering = (reg.subscriptions as Array<{ name: string; stream_id: number }>).find((s) => s.name === "engineering")!;
    const check = await ben("GET", "messages", {
      anchor: "newest",
      num_before: "5",
      num_after: "0",
      narrow: JSON.stringify([
        { operator: "channel", operand: engineering.stream_id },
        { operator: "topic", operand: "release 2.4" },
      ]),
      apply_markdown: "false",
    });
    const mine = (check.messages as Array<{ content: string; sender_email: string }>).filter((m) => m.sender_email === "maya@lighthouse.test");
    expect(mine.some((m) => m.content.endsWith(reply))).toBe(true);

    // M marks the topic read on the server; back in the Inbox it is gone.
    await session.sendKeys("M");
    await session.waitFor("Marked #engineering > release 2.4"); // the status line truncates at 80 columns
    await session.sendKeys("I");
    await session.waitFor(/Inbox {2}\d+ unread/);
    await session.waitForGone(/release 2\.4 ★\s+@?\s*\d/);
  });

  it("keys that arrive together (typed ahead over a lagging link) each act on what the key before them did", async () => {
    session = await startApp(["--demo", "--port", String(await freePort())], { cols: 100, rows: 30 });
    await session.waitFor(/connected/, { timeoutMs: 15_000 });

    // w opens the people list, / its filter, and the name goes into the filter — all in one write.
    await session.type("w/omar");
    await session.waitFor(/\/ omar/);
    // The people come after the first screen (a busy machine may draw the filter before them).
    const people = await session.waitFor(/▌ [●◐○] Omar Haddad/, { timeoutMs: 15_000 });
    expect(people).not.toMatch(/[●◐○] Ben Carter/); // the list holds only who matches (the sidebar still lists Ben)
    await session.sendKeys("Escape");
    await session.waitFor("Esc close"); // out of the filter, in the list
    await session.sendKeys("Escape");
    await session.waitForGone("1 person");

    // In the Inbox: two rows down is #engineering; Enter folds it, j goes on to #design, Enter opens nothing but folds it.
    await session.type("I");
    await session.waitFor(/▌ @ Lena Fischer/);
    await session.type("jj\rj\r");
    const inbox = await session.waitFor(/▌▸ #design/);
    expect(inbox).toMatch(/▸ #engineering/);
    expect(inbox).not.toContain("release 2.4");
  });
});
