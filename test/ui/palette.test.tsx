import { DEFAULT_SETTINGS } from "../../src/config/settings.js";
import { afterEach, describe, expect, it } from "vitest";
import { getChannelFolders } from "../../src/api/routes/channel-folders.js";
import { getChannelId } from "../../src/api/routes/channels.js";
import { getUserStatus } from "../../src/api/routes/status.js";
import { getUser } from "../../src/api/routes/users.js";
import { eventually } from "../fixtures/server.js";
import { KEY, renderApp, type AppHarness, channelId } from "./render-app.js";

const CTRL_K = "\u000b";
const TAB = "\t";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function typeText(a: AppHarness, text: string): Promise<void> {
  for (const ch of text) await a.press(ch);
}

/** Opens the palette, filters it, and runs the first match. */
async function command(a: AppHarness, filter: string, expectFirst: string): Promise<void> {
  await a.press(CTRL_K);
  await a.waitFor("type to filter");
  await typeText(a, filter);
  await a.waitFor(new RegExp(`▌ ${expectFirst}`));
  await a.press(KEY.enter);
}

describe("the command palette (Ctrl-K)", () => {
  it("filters the commands as you type, and closes with Esc", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press(CTRL_K);
    await app.waitFor("type to filter");
    await typeText(app, "your");
    await app.waitFor("Set your status");
    for (let i = 0; i < "your".length; i++) await app.press(KEY.backspace);
    await typeText(app, "folder");
    const f = await app.waitFor("Create a channel folder");
    expect(f).toContain("Rename or describe folder");
    expect(f).not.toContain("Set your status");
    await typeText(app, "zzqq");
    await app.waitFor("No command matches.");
    await app.press(KEY.escape);
    await app.waitFor("Combined feed");
    expect(app.frame()).not.toContain("type to filter");
  });

  it("renames a channel as an administrator; the server has the new name", async () => {
    app = await renderApp({ as: "ben" });
    await app.waitFor("connected");
    const id = channelId(app, "general");
    await app.sidebarTo("general");
    await app.press(KEY.enter);
    await command(app, "rename chan", "Rename channel");
    await app.waitFor("Rename #general");
    for (let i = 0; i < "general".length; i++) await app.press(KEY.backspace);
    // Longer than the organization allows (register's max_stream_name_length): said at once, nothing sent.
    const max = app.machine.store!.realm.maxChannelNameLength;
    await typeText(app, "x".repeat(max + 1));
    await app.press(KEY.enter);
    const refused = (await app.waitFor("organization's limit"))
      .split("\n")
      .map((l) => /│(.*)│/.exec(l.replace(/\x1b\[[0-9;]*m/g, ""))?.[1]?.trim() ?? "")
      .join(" ");
    expect(refused).toContain(`A channel name is longer than the organization's limit of ${max} characters (this is ${max + 1})`);
    expect(app.machine.store!.channels.get(id)?.name).toBe("general");
    for (let i = 0; i <= max; i++) await app.press(KEY.backspace);
    await typeText(app, "town-square");
    await app.press(KEY.enter);
    await app.waitFor("Renamed #general to #town-square");
    const res = await getChannelId(app.ctx.client(), "town-square");
    expect(res.stream_id).toBe(id);
    await app.waitFor("#town-square"); // the sidebar follows the server's event
  });

  it("shows the server's refusal when a member may not make a change", async () => {
    // Lena administers #design (she created it) but only owners may change retention.
    app = await renderApp({ as: "lena" });
    await app.waitFor("connected");
    await app.sidebarTo("design");
    await app.press(KEY.enter);
    await command(app, "retention", "Set channel message retention");
    await app.waitFor("Message retention of #design");
    await typeText(app, "forever");
    await app.press(KEY.enter);
    await app.waitFor("A number of days, unlimited, or realm_default"); // checked before asking the server
    for (let i = 0; i < "forever".length; i++) await app.press(KEY.backspace);
    await typeText(app, "30");
    await app.press(KEY.enter);
    await app.waitFor("Must be an organization owner");
  });

  it("lists administrator-only commands only for those allowed", async () => {
    app = await renderApp({ as: "omar" });
    await app.waitFor("connected");
    await app.sidebarTo("general");
    await app.press(KEY.enter);
    await app.press(CTRL_K);
    const f = await app.waitFor("type to filter");
    expect(f).toContain("Mute channel");
    await typeText(app, "deactivate");
    await app.waitFor("No command matches.");
    for (let i = 0; i < "deactivate".length; i++) await app.press(KEY.backspace);
    await typeText(app, "rename chan");
    await app.waitFor("No command matches.");
  });

  it("mutes the open topic", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    const id = channelId(app, "engineering");
    await app.sidebarTo("engineering");
    await app.press(KEY.enter);
    const expanded = (await app.waitFor("deploys")).split("\n");
    // The first topic under the channel that is not muted yet.
    const first = expanded.findIndex((l) => l.includes("▾#engineering")) + 1;
    const offset = expanded.slice(first).findIndex((l) => !l.includes("🔇"));
    const topic = expanded[first + offset]!.replace(/^.{1,5}?\s+(\S.*?)(\s+★)?(\s+\d+)?\s*$/u, "$1").trim();
    await app.press(...Array<string>(offset + 1).fill("j"), KEY.enter);
    await app.waitFor(`#engineering > ${topic}`);
    await command(app, "mute topic", "Mute topic");
    await app.waitFor(": muted");
    await eventually(() => app!.machine.store!.isTopicMuted(id, topic));
  });

  it("in the Inbox, acts on the topic under the cursor; with nothing there, asks for the channel", async () => {
    app = await renderApp({ settings: { ...DEFAULT_SETTINGS, startView: "inbox" } });
    const engineering = channelId(app, "engineering");
    const design = channelId(app, "design");
    await app.waitFor(/▌ @ Lena Fischer/);
    await app.press("j", "j", "j"); // Omar, #engineering, its topic
    await app.waitFor(/▌ {4}release 2\.4/);
    await command(app, "mute topic", "Mute topic");
    await app.waitFor("#engineering > release 2.4: muted");
    await eventually(() => app!.machine.store!.isTopicMuted(engineering, "release 2.4"));

    await app.press("g"); // a DM conversation: no channel under the cursor
    await app.waitFor(/▌ @ Lena Fischer/);
    await command(app, "mute or unmute", "Mute or unmute a channel");
    await app.waitFor("Channel");
    await typeText(app, "design");
    await app.press(KEY.enter);
    await eventually(() => app!.machine.store!.isChannelMuted(design));
  });

  it("sets your status", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await command(app, "set your status", "Set your status");
    await app.waitFor("Your status");
    await typeText(app, "Reviewing the Q3 plan");
    await app.press(TAB);
    // The emoji field shows what a name stands for as it is typed: the names it may start, then the emoji.
    await typeText(app, "coff");
    await app.waitFor(/coff\S*\s+☕ coffee/);
    await typeText(app, "ee");
    await app.waitFor(/coffee\S*\s+☕(\s|$)/m);
    await app.press(KEY.enter);
    await app.waitFor("Status: Reviewing the Q3 plan");
    const s = await getUserStatus(app.ctx.client(), app.machine.store!.selfId);
    expect(s.status).toMatchObject({ status_text: "Reviewing the Q3 plan", emoji_name: "coffee" });
  });

  it("creates a channel folder", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await command(app, "create folder", "Create a channel folder");
    await app.waitFor("New channel folder");
    await typeText(app, "Partners");
    await app.press(TAB);
    await typeText(app, "Shared channels with partners");
    await app.press(KEY.enter);
    await app.waitFor("Folder Partners created");
    const res = await getChannelFolders(app.ctx.client());
    expect(res.channel_folders.map((f) => [f.name, f.description])).toContainEqual(["Partners", "Shared channels with partners"]);
  });

  it("deactivates a user after a confirmation", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    const diego = app.machine.store!.userIdByEmail("diego@lighthouse.test")!;
    await command(app, "deactivate", "Deactivate a user");
    await app.waitFor("Deactivate a user");
    await typeText(app, "diego");
    await app.waitFor("→ Diego");
    await app.press(TAB, TAB, TAB, TAB, " "); // delete their direct messages
    await app.press(KEY.enter);
    const confirm = await app.waitFor(/Deactivate Diego \S+\?/);
    expect(confirm).toContain("Also deleted: direct messages.");
    // Cancelling changes nothing.
    await app.press("n");
    await app.waitFor(/^(?![\s\S]*Deactivate Diego)/);
    expect((await getUser(app.ctx.client(), diego)).user.is_active).toBe(true);

    await command(app, "deactivate", "Deactivate a user");
    await typeText(app, "diego");
    await app.waitFor("→ Diego");
    await app.press(KEY.enter);
    await app.waitFor(/Deactivate Diego \S+\?/);
    await app.press("y");
    await app.waitFor(/Diego \S+ deactivated/);
    expect((await getUser(app.ctx.client(), diego)).user.is_active).toBe(false);
  });
});
