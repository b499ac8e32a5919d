/**
 * The demo's poll (#design › new office) with the built binary in an 80×24
 * tmux terminal: drawn with its vote counts instead of its /poll text, voted
 * on from the keyboard (v, Space) with the vote on the server, another
 * user's vote arriving live, and hostile option texts never reaching the
 * terminal raw.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { PAYLOADS, terminalLeaks } from "../fixtures/hostile.js";
import { apiAs, ensureBuilt, freePort, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;
let dir: string | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("polls in tmux", () => {
  it("shows the demo poll with counts, votes from the keyboard, follows another user's vote, and keeps hostile options harmless", async () => {
    dir = mkdtempSync(join(tmpdir(), "termchat-poll-"));
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    session = await startApp(["--demo", "--port", String(port)], { cols: 80, rows: 24, logFile: join(dir, "raw.log") });
    await session.waitFor(/connected/, { timeoutMs: 15_000 });

    // Search finds the poll; it is drawn as a poll, not as its /poll text.
    await session.sendKeys("/");
    await session.waitFor("Search");
    await session.type("Which day");
    await session.sendKeys("Enter");
    const found = await session.waitFor("Poll: Which day should we move?", { timeoutMs: 5000 });
    expect(found).toMatch(/\[ \] 2 {2}Friday 12th/);
    expect(found).toMatch(/\[ \] 1 {2}Monday 15th/);
    expect(found).toMatch(/\[ \] 1 {2}Saturday 13th/);
    expect(found).not.toContain("/poll");

    // Select the poll (the newest result is selected first), open its popup, vote for Friday.
    await session.sendKeys("k");
    await session.waitFor(/▌ *Poll: Which day/);
    await session.sendKeys("v");
    await session.waitFor("vote/unvote", { timeoutMs: 5000 });
    await session.sendKeys("Space");
    await session.waitFor(/\[x\] 3 Friday 12th/, { timeoutMs: 5000 });
    await session.sendKeys("Escape");
    await session.waitFor(/\[x\] 3 {2}Friday 12th/, { timeoutMs: 5000 });

    const maya = await apiAs(site, "maya@lighthouse.test");
    const me = (await maya("GET", "users/me")).user_id as number;
    const search = await maya("GET", "messages", {
      anchor: "newest",
      num_before: "50",
      num_after: "0",
      narrow: JSON.stringify([{ operator: "search", operand: "Which day" }]),
      apply_markdown: "false",
    });
    const poll = (search.messages as Array<{ id: number; content: string }>).find((m) => m.content.startsWith("/poll"))!;
    const got = await maya("GET", `messages/${poll.id}`, { apply_markdown: "false" });
    const subs = (got.message as { submessages: Array<{ sender_id: number; content: string }> }).submessages;
    expect(subs.at(-1)).toMatchObject({ sender_id: me });
    expect(JSON.parse(subs.at(-1)!.content)).toEqual({ type: "vote", key: "canned,0", vote: 1 });

    // Omar votes for Monday: the count follows the server's event.
    const omar = await apiAs(site, "omar@lighthouse.test");
    const vote = await omar("POST", "submessage", { message_id: String(poll.id), msg_type: "widget", content: JSON.stringify({ type: "vote", key: "canned,1", vote: 1 }) });
    expect(vote.result).toBe("success");
    await session.waitFor(/\[ \] 2 {2}Monday 15th/, { timeoutMs: 5000 });

    // Hostile options (escape sequences, controls, bidi) are drawn as harmless text.
    for (const [i, x] of PAYLOADS.entries()) {
      const r = await omar("POST", "submessage", { message_id: String(poll.id), msg_type: "widget", content: JSON.stringify({ type: "new_option", idx: i + 1, option: x.text }) });
      expect(r.result).toBe("success");
    }
    await session.sendKeys("v");
    await session.waitFor(PAYLOADS[0]!.marker, { timeoutMs: 5000 });
    await session.sendKeys("Escape");
    await session.waitFor(/\[x\] 3 {2}Friday 12th/, { timeoutMs: 5000 });
    expect(terminalLeaks(await session.rawOutput())).toEqual([]);
  });
});
