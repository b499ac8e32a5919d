/**
 * Writing, from the keyboard to the server: new topics (c), new direct
 * messages (x), replies to the sender (R), with a mention (@) and a quote
 * (>), autocomplete, the Enter/Alt-Enter setting, $EDITOR (Ctrl-O), the
 * multi-line box, and typing notices that stop when the box closes.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getEvents, register } from "../../src/api/routes/events.js";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { updateChannel } from "../../src/api/routes/channels.js";
import { DEFAULT_SETTINGS } from "../../src/config/settings.js";
import type { ApiClient } from "../../src/api/http.js";
import { KEY, renderApp, type AppHarness } from "./render-app.js";

const K = { ...KEY, tab: "\t", sTab: "\u001b[Z", altEnter: "\u001b\r", ctrlO: "\u000f", ctrlU: "\u0015", right: "\u001b[C" };

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function channelId(a: AppHarness, name: string): number {
  const c = [...a.machine.store!.channels.values()].find((s) => s.name === name);
  if (!c) throw new Error(`no channel ${name}`);
  return c.stream_id;
}

function userId(a: AppHarness, email: string): number {
  const id = a.machine.store!.userIdByEmail(email);
  if (id === undefined) throw new Error(`no user ${email}`);
  return id;
}

/** The message pane's title (the first row, right of the 30-column sidebar) is exactly this. */
function paneTitle(title: string): RegExp {
  return new RegExp(`^[^\n]{31}${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} *\n`);
}

/** Opens a channel's messages with the newest selected. */
async function openChannel(a: AppHarness, name: string): Promise<void> {
  await a.press("h", "h"); // to the sidebar (from the messages), with no channel expanded
  await a.sidebarTo(name);
  await a.press(KEY.enter, K.tab);
  await a.waitFor(paneTitle(`#${name}`));
  // G once the messages are there: on a busy machine they may come after the title.
  const narrow = { kind: "channel" as const, channelId: channelId(a, name) };
  await a.until(() => (a.machine.store!.messages.list(narrow)?.ids.length ?? 0) > 0, `#${name}'s messages`);
  await a.press("G");
}

type Term = { operator: string; operand: unknown };

/** The newest message of a narrow on the server (as another user sees it), once it satisfies `ok` (bounded wait). */
async function newestOnServer(client: ApiClient, narrow: Term[], ok: (m: { content: string; subject: string }) => boolean) {
  let last: { content: string; subject: string } | undefined;
  for (let i = 0; i < 60; i++) {
    const r = await getMessages(client, { anchor: "newest", num_before: 1, num_after: 0, narrow: narrow as never, apply_markdown: false });
    last = r.messages[0];
    if (last && ok(last)) return last;
    await new Promise((res) => setTimeout(res, 50));
  }
  return last;
}

describe("writing new conversations", () => {
  it("c asks for a topic in the open channel and sends to it; outside a channel it asks for the channel first", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await openChannel(app, "general");
    await app.press("c");
    await app.waitFor("New topic in #general");
    await app.press("launch plans", KEY.enter);
    await app.waitFor(/#general > launch plans\s+Enter send/);
    await app.press("first words on launch", KEY.enter);
    await app.waitFor("first words on launch");
    const general = channelId(app, "general");
    const m = await newestOnServer(app.ctx.client("omar"), [{ operator: "channel", operand: general }], (x) => x.content === "first words on launch");
    expect(m).toMatchObject({ subject: "launch plans", content: "first words on launch" });

    // From the combined feed: the channel first, then the topic.
    await app.press(KEY.escape); // back to the sidebar
    await app.sidebarTo("Combined feed");
    await app.press(KEY.enter, K.tab, "c");
    await app.waitFor("New topic in which channel?");
    await app.press("rand");
    await app.waitFor(/▌?\s*#random/);
    await app.press(KEY.enter);
    await app.waitFor("New topic in #random");
    await app.press("ideas\r"); // typed fast: the name and Enter arrive in one read
    await app.waitFor(/#random > ideas\s+Enter send/);
  });

  it("c with an empty topic: shown with the organization's name for it, refused where the channel requires a topic", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await openChannel(app, "random");
    await app.press("c");
    const f = await app.waitFor("New topic in #random");
    expect(f).toContain("(empty: “general chat”)");
    await app.press(KEY.enter);
    await app.waitFor(/#random > general chat\s+Enter send/);
    await app.press(KEY.escape); // close the box

    const general = channelId(app, "general");
    await updateChannel(app.ctx.client(), general, { topics_policy: "disable_empty_topic" });
    await openChannel(app, "general");
    await app.press("c", KEY.enter);
    await app.waitFor("#general requires a topic");
    // Over the organization's topic length limit: said before anything is sent.
    await app.press("t".repeat(app.machine.store!.realm.maxTopicLength + 1), KEY.enter);
    await app.waitFor(/longer than the organization's limit of \d+/);
  });

  it("x writes to one or more people picked with a filter", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press(K.tab, "x");
    await app.waitFor("New direct message");
    await app.press("omar");
    await app.waitFor("omar@lighthouse.test");
    await app.press(KEY.enter);
    await app.waitFor(/Omar Haddad\s+Enter send/);
    await app.press("hello Omar", KEY.enter);
    await app.waitFor("hello Omar");
    const omar = app.ctx.client("omar");
    const self = app.machine.store!.selfId;
    expect((await newestOnServer(omar, [{ operator: "dm", operand: [self] }], (x) => x.content === "hello Omar"))?.content).toBe("hello Omar");

    await app.press("x", "lena", K.tab, "diego", K.tab);
    await app.waitFor(/To: Lena \w+, Diego \w+/);
    await app.press(KEY.enter);
    await app.waitFor(/Diego \w+, Lena \w+\s+Enter send|Lena \w+, Diego \w+\s+Enter send/);

    // Typed fast (one read): the filter applies before Enter picks.
    await app.press(KEY.escape, "x", "ben\r");
    await app.waitFor(/Ben Carter\s+Enter send/);
  });
});

describe("replying to the selected message", () => {
  async function withOmarsMessage(): Promise<{ a: AppHarness; id: number; omarId: number }> {
    const a = await renderApp();
    await a.waitFor("connected");
    const general = channelId(a, "general");
    const content = "Deploy is **done**, see ```inline``` notes";
    const sent = await sendMessage(a.ctx.client("omar"), { type: "stream", to: general, topic: "replies", content });
    await openChannel(a, "general");
    await a.waitFor("Deploy is");
    return { a, id: sent.id, omarId: userId(a, "omar@lighthouse.test") };
  }

  it("R writes to the sender directly", async () => {
    const { a } = await withOmarsMessage();
    app = a;
    await a.press("R");
    await a.waitFor(/Omar Haddad\s+Enter send/);
  });

  it("@ starts a reply that mentions the sender", async () => {
    const { a, omarId } = await withOmarsMessage();
    app = a;
    await a.press("@");
    await a.waitFor(`@**Omar Haddad|${omarId}**`);
    await a.press("thanks!", KEY.enter);
    const general = channelId(a, "general");
    await a.waitFor("thanks!");
    const m = await newestOnServer(a.ctx.client("omar"), [{ operator: "channel", operand: general }], (x) => x.content.endsWith("thanks!"));
    expect(m?.content).toBe(`@**Omar Haddad|${omarId}** thanks!`);
  });

  it("> quotes the message with the service's quote block and a link to it", async () => {
    const { a, id, omarId } = await withOmarsMessage();
    app = a;
    await a.press(">");
    await a.waitFor("[said](");
    await a.press("agreed", KEY.enter);
    const general = channelId(a, "general");
    await a.waitFor("agreed");
    const m = await newestOnServer(a.ctx.client("omar"), [{ operator: "channel", operand: general }], (x) => x.content.endsWith("agreed"));
    const link = `${a.machine.store!.realm.url.replace(/\/$/, "")}/#narrow/channel/${general}-general/topic/replies/near/${id}`;
    expect(m?.content).toBe(`@_**Omar Haddad|${omarId}** [said](${link}):\n\`\`\`\`quote\nDeploy is **done**, see \`\`\`inline\`\`\` notes\n\`\`\`\`\nagreed`);
  });
});

describe("the compose box", () => {
  it("completes @people, #channels and their >topics, and :emoji:; Esc closes the list before the box", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await openChannel(app, "general");
    await app.press("r");
    await app.waitFor("Enter send");
    await app.press("hi @oma");
    await app.waitFor(/▌@ Omar Haddad/);
    await app.press(KEY.enter); // inserts, does not send
    await app.waitFor("hi @**Omar Haddad** ");
    await app.press("see #engin");
    await app.waitFor(/▌# #engineering/);
    await app.press(K.tab); // the only suggestion: inserted
    await app.waitFor("see #**engineering**");
    await app.press(">");
    await app.waitFor(/▌> \S/); // the channel's topics
    await app.press(KEY.escape);
    await app.waitFor("Enter send");
    expect(app.frame()).not.toMatch(/▌> /);
    await app.press(KEY.backspace, " :smi");
    const list = await app.waitFor(/▌: \S+ :smile:/);
    expect(list).toMatch(/ : \S+ :smiley:/);
    await app.press(K.tab);
    await app.waitFor(/▌: \S+ :smiley:/);
    await app.press(K.sTab, KEY.enter);
    await app.waitFor(":smile: ");
    await app.press(KEY.escape); // no list now: the box closes, the text stays as a draft
    await app.waitFor(paneTitle("#general"));
    expect(app.frame()).not.toContain("Enter send");
    await app.press("r");
    await app.waitFor("hi @**Omar Haddad** see #**engineering** :smile:");
  });

  it("with enterSends off, Enter adds a line and Alt-Enter sends; up/down move between lines", async () => {
    app = await renderApp({ settings: { ...DEFAULT_SETTINGS, enterSends: false } });
    await app.waitFor("connected");
    await openChannel(app, "general");
    await app.press("r");
    await app.waitFor("Alt-Enter send");
    expect(app.frame()).toContain("Enter new line");
    await app.press("line one", KEY.enter, "line two", KEY.up, "!", KEY.down, "?");
    await app.waitFor("line one!");
    await app.press(K.altEnter);
    await app.waitFor(/Maya Okafor +\d/);
    expect(app.frame()).not.toContain("Alt-Enter send");
    const m = await newestOnServer(app.ctx.client("omar"), [{ operator: "channel", operand: channelId(app, "general") }], (x) => x.content.startsWith("line one"));
    expect(m?.content).toBe("line one!\nline two?");
  });

  it("keeps every key when several arrive in one read (a slow link): Backspace edits, a final Enter sends", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await openChannel(app, "general");
    await app.press("r");
    await app.waitFor("Enter send");
    await app.press("fast typx\u007fing\r");
    await app.waitFor(/Maya Okafor +\d/);
    const m = await newestOnServer(app.ctx.client("omar"), [{ operator: "channel", operand: channelId(app, "general") }], (x) => x.content.startsWith("fast"));
    expect(m?.content).toBe("fast typing");
  });

  it("grows to six lines, then scrolls with the cursor", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await openChannel(app, "general");
    await app.press("r");
    await app.waitFor("Enter send"); // the box is open: what follows is text, not keys of the message pane
    for (let i = 1; i <= 8; i++) await app.press(`row ${i}`, KEY.ctrlJ);
    let f = await app.waitFor("4-9/9");
    expect(f).toContain("row 8");
    expect(f).not.toContain("row 3");
    await app.press(...Array<string>(8).fill(KEY.up));
    f = await app.waitFor("1-6/9");
    expect(f).toContain("row 1");
  });

  it("Ctrl-O edits the text in $EDITOR; a failing editor leaves it unchanged", async () => {
    const dir = await mkdtemp(join(tmpdir(), "termchat-editor-"));
    const script = join(dir, "append.cjs");
    // The "editor": appends to the file it is given, as a person would type at its end.
    await writeFile(script, `require("node:fs").appendFileSync(process.argv[2], " and from the editor\\n");\n`);
    await chmod(script, 0o700);
    const saved = { EDITOR: process.env["EDITOR"], VISUAL: process.env["VISUAL"] };
    delete process.env["VISUAL"];
    try {
      app = await renderApp();
      await app.waitFor("connected");
      await openChannel(app, "general");
      await app.press("r");
      await app.waitFor("Enter send · "); // the compose box is open
      await app.press("typed here");
      await app.waitFor("typed here");
      process.env["EDITOR"] = `"${process.execPath}" "${script}"`;
      await app.press(K.ctrlO);
      await app.waitFor("typed here and from the editor");
      process.env["EDITOR"] = `"${process.execPath}" -e "process.exit(3)"`;
      await app.press(K.ctrlO);
      await app.waitFor(/exited with stat/);
      expect(app.frame()).toContain("typed here and from the editor");
      await app.press(KEY.enter);
      const m = await newestOnServer(app.ctx.client("omar"), [{ operator: "channel", operand: channelId(app, "general") }], (x) => x.content.startsWith("typed"));
      expect(m?.content).toBe("typed here and from the editor");
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("tells the other person about typing, and stops when the box closes or the message is sent", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    const omar = app.ctx.client("omar");
    const q = await register(omar, { event_types: ["typing"] });
    let last = q.last_event_id;
    const seen: string[] = [];
    const waitForOp = async (op: string) => {
      for (let i = 0; i < 50 && !seen.includes(op); i++) {
        const r = await getEvents(omar, { queue_id: q.queue_id!, last_event_id: last, dont_block: true });
        for (const e of r.events) {
          last = Math.max(last, e.id);
          if (e.type === "typing") seen.push((e as { op: string }).op);
        }
        if (!seen.includes(op)) await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen).toContain(op);
      seen.length = 0;
    };
    await app.press(K.tab, "x", "omar", KEY.enter);
    await app.waitFor(/Omar Haddad\s+Enter send/);
    await app.press("h");
    await waitForOp("start");
    await app.press(KEY.escape);
    await waitForOp("stop");
    await app.press("x", "omar", KEY.enter, "i");
    await waitForOp("start");
    await app.press(KEY.enter);
    await waitForOp("stop");
  });
});
