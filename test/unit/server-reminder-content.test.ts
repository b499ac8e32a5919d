/**
 * The reference server's reminder text: the message quoted in a fence it
 * cannot close, cut to fit the organization's message length, and a poll or
 * a to-do list named rather than quoted; the note as kept.
 */
import { expect, it } from "vitest";
import type { ServerContext } from "../../src/server/context.js";
import { LIMITS } from "../../src/server/context.js";
import { normalizeNote, reminderContent } from "../../src/server/reminder-content.js";
import { seed } from "../../src/server/seed/index.js";
import type { Message } from "../../src/server/state.js";

const { state } = seed("demo", Date.UTC(2026, 0, 1));
const ctx = { state, realmUrl: "https://chat.example.test" } as ServerContext;
const channelMessage = state.messages.find((m) => m.type === "stream")!;
const dm = state.messages.find((m) => m.type === "private" && m.dmUserIds.length === 2)!;
const withContent = (m: Message, content: string): Message => ({ ...m, content });

it("quotes a channel message with links to it", () => {
  const text = reminderContent(ctx, withContent(channelMessage, "Ship it on Friday."));
  const channel = state.channels.get(channelMessage.channelId!)!;
  const author = state.users.get(channelMessage.senderId)!;
  expect(text.split("\n")[0]).toBe("You requested a reminder for the following message.");
  expect(text).toContain(`@_**${author.fullName}|${author.id}** [said](https://chat.example.test/#narrow/channel/${channel.id}-`);
  expect(text).toContain(`/near/${channelMessage.id}) in #**${channel.name}>${channelMessage.topic}@${channelMessage.id}**:\n\`\`\`quote\nShip it on Friday.\n\`\`\``);
});

it("names the other participants of a direct message, and the note", () => {
  const other = state.users.get(dm.dmUserIds.find((id) => id !== dm.senderId)!)!;
  const text = reminderContent(ctx, withContent(dm, "lunch?"), "ask about Friday");
  expect(text.startsWith("You requested a reminder for the following direct message. Note:\n > ask about Friday\n\n")).toBe(true);
  expect(text).toContain(`/#narrow/dm/${dm.dmUserIds.join(",")}/near/${dm.id}) to @_**${other.fullName}|${other.id}**:`);
});

it("uses a fence longer than any in the message, and cuts a long message to fit the limit", () => {
  expect(reminderContent(ctx, withContent(channelMessage, "```\ncode\n```"))).toContain("````quote\n```\ncode\n```\n````");
  const long = reminderContent(ctx, withContent(channelMessage, "x".repeat(LIMITS.maxMessageLength)));
  expect([...long].length).toBeLessThanOrEqual(LIMITS.maxMessageLength);
  expect(long).toMatch(/x\n\[message truncated\]\n```$/);
});

it("names a poll or a to-do list instead of quoting it", () => {
  expect(reminderContent(ctx, withContent(channelMessage, "/poll Lunch?\nPizza"))).toMatch(/\[sent\]\([^)]+\) a poll in #\*\*.+\*\*\.$/);
  expect(reminderContent(ctx, withContent(dm, "/todo Chores\nDishes"))).toMatch(/\[sent\]\([^)]+\) a todo list to @_\*\*.+\*\*\.$/);
});

it("keeps a note without its trailing space and leading blank lines; too long is refused", () => {
  expect(normalizeNote("\n\n  look again  \n")).toBe("  look again");
  expect(normalizeNote("x".repeat(1001))).toBeNull();
});
