/**
 * Heavy content another member can send, on the real App against the reference server: 1,000
 * different reactions on one message, a poll of 5,000 options and votes, and names at the
 * service's length limits made of wide glyphs and stacks of combining marks. Each arrives as
 * the server's events would bring it; the pane stays bounded (a few lines for the reactions, the
 * poll summed up), every line fits the terminal, and keys go on working. How long keys wait
 * meanwhile: `npm run bench` (BENCH_ONLY=hostile).
 */
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { sendMessage } from "../../src/api/routes/messages.js";
import { parseEvent } from "../../src/api/schemas/events.js";
import { displayWidth } from "../../src/render/wrap.js";
import { MAX_REACTION_LINES } from "../../src/ui/message-layout.js";
import { awkwardName, MAX_NAME_LENGTH, MAX_TOPIC_LENGTH } from "../fixtures/hostile-content.js";
import { channelId, KEY, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Events as the server sends them, applied by the store as the update machine applies a batch. */
async function arrive(h: AppHarness, events: Array<Record<string, unknown>>) {
  await act(async () => {
    h.machine.store!.applyAll(events.map((e, i) => parseEvent({ id: 1_000_000 + i, ...e })));
  });
}

/** Opens the combined feed at its newest message; another member posts: that message is selected. */
async function postAndSelect(h: AppHarness, content: string, shown = content, topic = "heavy"): Promise<number> {
  await h.waitFor("connected");
  await h.sidebarTo("Combined feed");
  await h.press(KEY.enter, "G");
  const sent = await sendMessage(h.ctx.client(h.ctx.account("member")), { type: "stream", to: channelId(h, "general"), topic, content });
  await h.waitFor(shown);
  return sent.id;
}

function expectLinesFit(frame: string) {
  for (const line of frame.split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(100);
}

describe("heavy content in the message pane", () => {
  it("1,000 different reactions on one message take a few lines, the rest counted; = lists them all", async () => {
    app = await renderApp();
    const id = await postAndSelect(app, "react to this");
    const users = [...app.machine.store!.users.values()].map((u) => u.user_id);
    // 1,000 distinct emoji (code points from the pictographs block on), from the organization's people.
    await arrive(
      app,
      Array.from({ length: 1000 }, (_, i) => {
        const code = (0x1f300 + i).toString(16);
        return { type: "reaction", op: "add", message_id: id, user_id: users[i % users.length], emoji_name: `emoji_${code}`, emoji_code: code, reaction_type: "unicode_emoji" };
      }),
    );
    const frame = await app.waitFor(/\+\d+ more/);
    // The pane's side of each row (the sidebar's counts are on the left of the selection bar).
    const reactionRows = frame.split("\n").map((l) => l.slice(Math.max(0, l.indexOf("▌")))).filter((l) => /\S+ 1[ \]]+\S+ 1[ \]]/.test(l) || /\+\d+ more/.test(l));
    expect(reactionRows.length).toBeLessThanOrEqual(MAX_REACTION_LINES);
    const more = Number(/\+(\d+) more/.exec(frame)![1]);
    const shown = reactionRows.join(" ").match(/ 1(?=[ \]]|$)/g)?.length ?? 0;
    expect(shown + more).toBe(1000);
    expectLinesFit(frame);

    // = lists every reaction, a screenful at a time; j moves through them.
    await app.press("=");
    await app.waitFor("Reactions");
    await app.press(..."jjjjj");
    expectLinesFit(app.frame());
    await app.press(KEY.escape);
    await app.waitFor("react to this");
    // Keys go on working: up to the message before and back.
    await app.press("k");
    await app.press("j");
    await app.waitFor(/\+\d+ more/);
  });

  it("a poll of 5,000 options with votes is summed up in the pane, and its popup moves through them", async () => {
    app = await renderApp();
    const id = await postAndSelect(app, "/poll Where to?\nHere\nThere", "Poll: Where to?");
    const users = [...app.machine.store!.users.values()].filter((u) => !u.is_bot).map((u) => u.user_id).slice(0, 5);
    expect(users).toHaveLength(5);
    const subs: Array<Record<string, unknown>> = [];
    let subId = 10_000_000;
    // Each person adds 1,000 options (the most a person can), then everyone votes for some.
    for (const u of users) {
      for (let idx = 0; idx < 1000; idx++) {
        subs.push({ type: "submessage", msg_type: "widget", message_id: id, submessage_id: subId++, sender_id: u, content: JSON.stringify({ type: "new_option", idx, option: `Option ${u}-${idx}` }) });
      }
    }
    for (const [n, u] of users.entries()) {
      for (let idx = 0; idx < 1000; idx += n + 1) {
        subs.push({ type: "submessage", msg_type: "widget", message_id: id, submessage_id: subId++, sender_id: u, content: JSON.stringify({ type: "vote", key: `${users[0]},${idx}`, vote: 1 }) });
      }
    }
    await arrive(app, subs);
    // The poll's first options, with their votes; the rest summed up below them (past the screen's foot here).
    const frame = await app.waitFor(/Poll: Where to\?  \(5 voters\)/);
    // Everyone voted for the first option: marked as the reader's own vote when the reader is among them.
    const mine = users.includes(app.machine.store!.selfId) ? "x" : " ";
    expect(frame).toMatch(new RegExp(`\\[${mine}\\] 5  Option ${users[0]}-0`));
    expectLinesFit(frame);

    // v opens it: the options a screenful at a time, j goes down through them.
    await app.press("v");
    await app.waitFor("vote/unvote");
    await app.press(...Array<string>(40).fill("j"));
    const popup = await app.waitFor(`Option ${users[0]}-37`);
    expectLinesFit(popup);
    await app.press(KEY.escape);
    await app.waitFor(/Poll: Where to\?  \(5 voters\)/);
  });

  it("a name and a topic at the longest the service allows, of wide glyphs and combining marks, fit their rows", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    const member = app.ctx.account("member");
    const name = awkwardName(MAX_NAME_LENGTH);
    const topic = awkwardName(MAX_TOPIC_LENGTH, 3);
    expect([...name]).toHaveLength(MAX_NAME_LENGTH);
    expect([...topic]).toHaveLength(MAX_TOPIC_LENGTH);
    await arrive(app, [{ type: "realm_user", op: "update", person: { user_id: member.userId, full_name: name } }]);
    await postAndSelect(app, "from a long name", "from a long name", topic);
    expectLinesFit(app.frame());
    // The sidebar shows the topic, cut to its column; the people list shows the name.
    await app.press(KEY.escape, "w");
    await app.waitFor(/漢字/);
    expectLinesFit(app.frame());
  });
});
