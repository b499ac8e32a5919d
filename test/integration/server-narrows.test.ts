// Narrows on the reference server: every operator of the public API, its
// negation, search with highlighting, shared history and errors.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { account, client, ids, send, start, type Api, type Json } from "./server-test-client.js";

let server: RunningServer;
let maya: Api;
const sent: Record<string, number> = {};
let ben: { userId: number; email: string };
let priya: { userId: number };
const Z = { operator: "search", operand: "zebrafish" };
const not = (operator: string, operand: unknown) => ({ operator, operand, negated: true });
const term = (operator: string, operand: unknown) => ({ operator, operand });

beforeAll(async () => {
  server = await start();
  maya = client(server, server.accounts[0]!);
  const benAcc = account(server, "admin");
  const priyaAcc = account(server, "moderator");
  ben = benAcc;
  priya = priyaAcc;
  const asBen = client(server, benAcc);
  const asLena = client(server, account(server, "member", 1));
  const asOmar = client(server, account(server, "member", 0));
  sent["eng"] = await send(asBen, { type: "stream", to: "engineering", topic: "narrow-lab", content: "Deployment checklist for **zebrafish** https://example.com/x" });
  sent["design"] = await send(asBen, { type: "stream", to: "design", topic: "narrow-lab", content: "image ![pic](https://img.example.com/a.png) zebrafish" });
  sent["general"] = await send(asOmar, { type: "stream", to: "general", topic: "narrow-lab", content: "attachment [f.pdf](/user_uploads/1/ab/f.pdf) zebrafish & friends" });
  sent["dm"] = await send(asBen, { type: "direct", to: [server.accounts[0]!.userId], content: "private zebrafish note" });
  sent["group"] = await send(asBen, { type: "direct", to: [server.accounts[0]!.userId, priyaAcc.userId], content: "group zebrafish plan" });
  sent["mention"] = await send(asLena, { type: "stream", to: "engineering", topic: "narrow-lab", content: "hey @**Maya Okafor** zebrafish?" });
  sent["mine"] = await send(maya, { type: "stream", to: "general", topic: "narrow-lab", content: "my own zebrafish" });
  await maya("POST", "/messages/flags", { messages: [sent["design"]], op: "add", flag: "starred" });
  await maya("POST", "/messages/flags", { messages: [sent["general"]], op: "add", flag: "read" });
});

const all = () => Object.values(sent).sort((a, b) => a - b);
const only = (...names: string[]) => names.map((n) => sent[n]!).sort((a, b) => a - b);
const except = (...names: string[]) => all().filter((id) => !names.some((n) => sent[n] === id));

describe("operators and their negation (within a search)", () => {
  it("channel / stream by name and id", async () => {
    const reg = (await maya("POST", "/register", { fetch_event_types: ["subscription"] })).body;
    const engId = reg["subscriptions"].find((s: Json) => s.name === "engineering").stream_id;
    expect(await ids(maya, [Z, term("channel", "engineering")])).toEqual(only("eng", "mention"));
    expect(await ids(maya, [Z, term("stream", engId)])).toEqual(only("eng", "mention"));
    expect(await ids(maya, [Z, term("channel", String(engId))])).toEqual(only("eng", "mention"));
    expect(await ids(maya, [Z, not("channel", "engineering")])).toEqual(except("eng", "mention"));
  });

  it("topic (case-insensitive)", async () => {
    expect(await ids(maya, [Z, term("topic", "Narrow-Lab")])).toEqual(except("dm", "group"));
    expect(await ids(maya, [Z, not("topic", "narrow-lab")])).toEqual(only("dm", "group"));
  });

  it("dm by ids, by emails, legacy pm-with, and negated", async () => {
    expect(await ids(maya, [Z, term("dm", [ben.userId])])).toEqual(only("dm"));
    expect(await ids(maya, [Z, term("dm", ben.email)])).toEqual(only("dm"));
    expect(await ids(maya, [Z, term("pm-with", [ben.userId])])).toEqual(only("dm"));
    expect(await ids(maya, [Z, term("dm", [ben.userId, priya.userId])])).toEqual(only("group"));
    expect(await ids(maya, [Z, not("dm", [ben.userId])])).toEqual(except("dm"));
  });

  it("dm-including and group-pm-with", async () => {
    expect(await ids(maya, [Z, term("dm-including", ben.userId)])).toEqual(only("dm", "group"));
    expect(await ids(maya, [Z, term("dm-including", server.accounts[0]!.userId)])).toEqual(only("dm", "group"));
    expect(await ids(maya, [Z, not("dm-including", priya.userId)])).toEqual(except("group"));
    expect(await ids(maya, [Z, term("group-pm-with", ben.email)])).toEqual(only("group"));
  });

  it("sender by id, email and me", async () => {
    expect(await ids(maya, [Z, term("sender", ben.userId)])).toEqual(only("eng", "design", "dm", "group"));
    expect(await ids(maya, [Z, term("sender", ben.email)])).toEqual(only("eng", "design", "dm", "group"));
    expect(await ids(maya, [Z, term("sender", "me")])).toEqual(only("mine"));
    expect(await ids(maya, [Z, not("sender", "me")])).toEqual(except("mine"));
  });

  it("is:dm, is:private, is:starred, is:mentioned, is:unread, is:alerted", async () => {
    expect(await ids(maya, [Z, term("is", "dm")])).toEqual(only("dm", "group"));
    expect(await ids(maya, [Z, term("is", "private")])).toEqual(only("dm", "group"));
    expect(await ids(maya, [Z, not("is", "dm")])).toEqual(except("dm", "group"));
    expect(await ids(maya, [Z, term("is", "starred")])).toEqual(only("design"));
    expect(await ids(maya, [Z, not("is", "starred")])).toEqual(except("design"));
    expect(await ids(maya, [Z, term("is", "mentioned")])).toEqual(only("mention"));
    expect(await ids(maya, [Z, not("is", "mentioned")])).toEqual(except("mention"));
    expect(await ids(maya, [Z, term("is", "unread")])).toEqual(except("general", "mine"));
    expect(await ids(maya, [Z, not("is", "unread")])).toEqual(only("general", "mine"));
    expect(await ids(maya, [Z, term("is", "alerted")])).toEqual([]);
    expect(await ids(maya, [Z, not("is", "alerted")])).toEqual(all());
  });

  it("has:link, has:image, has:attachment, has:reaction", async () => {
    expect(await ids(maya, [Z, term("has", "link")])).toEqual(only("eng", "design", "general"));
    expect(await ids(maya, [Z, not("has", "link")])).toEqual(except("eng", "design", "general"));
    expect(await ids(maya, [Z, term("has", "image")])).toEqual(only("design"));
    expect(await ids(maya, [Z, not("has", "image")])).toEqual(except("design"));
    expect(await ids(maya, [Z, term("has", "attachment")])).toEqual(only("general"));
    expect(await ids(maya, [Z, not("has", "attachment")])).toEqual(except("general"));
    expect(await ids(maya, [Z, term("has", "reaction")])).toEqual([]);
    const reacted = (await maya("GET", "/messages", { anchor: "newest", num_before: 200, num_after: 0, narrow: [term("has", "reaction")] })).body;
    expect(reacted.messages.length).toBeGreaterThan(0);
    for (const m of reacted.messages) expect(m.reactions.length).toBeGreaterThan(0);
    const unreacted = (await maya("GET", "/messages", { anchor: "newest", num_before: 200, num_after: 0, narrow: [not("has", "reaction")] })).body;
    for (const m of unreacted.messages) expect(m.reactions).toEqual([]);
  });

  it("id, near and with", async () => {
    expect(await ids(maya, [term("id", sent["eng"])])).toEqual(only("eng"));
    expect(await ids(maya, [term("id", String(sent["eng"]))])).toEqual(only("eng"));
    expect(await ids(maya, [Z, not("id", sent["eng"])])).toEqual(except("eng"));
    expect(await ids(maya, [Z, term("near", sent["eng"])])).toEqual(all());
    // with: the conversation of the message, replacing channel/topic/dm terms.
    expect(await ids(maya, [Z, term("with", sent["eng"])])).toEqual(only("eng", "mention"));
    expect(await ids(maya, [Z, term("channel", "general"), term("with", sent["eng"])])).toEqual(only("eng", "mention"));
    expect(await ids(maya, [Z, term("with", sent["dm"])])).toEqual(only("dm"));
    expect(await ids(maya, [Z, term("with", 99_999_999)])).toEqual(all()); // inaccessible: dropped
  });

  it("is:followed, is:muted, is:resolved and in:home", async () => {
    const get = async (narrow: unknown[]) =>
      (await maya("GET", "/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow, apply_markdown: false })).body.messages as Json[];
    const followed = await get([term("is", "followed")]);
    expect(followed.length).toBeGreaterThan(0);
    for (const m of followed) expect(m.subject).toBe("release 2.4");
    for (const m of await get([not("is", "followed"), term("channel", "engineering")])) expect(m.subject).not.toBe("release 2.4");
    const muted = await get([term("is", "muted")]);
    expect(muted.length).toBeGreaterThan(0);
    for (const m of muted) expect(m.display_recipient === "random" || m.subject === "deploys").toBe(true);
    for (const m of await get([not("is", "muted")])) expect(m.display_recipient === "random" || m.subject === "deploys").toBe(false);
    const home = await get([term("in", "home")]);
    expect(home.map((m) => m.id)).toEqual((await get([not("is", "muted")])).map((m) => m.id));
    const resolved = await get([term("is", "resolved")]);
    expect(resolved.length).toBeGreaterThan(0);
    for (const m of resolved) expect(m.subject.startsWith("✔ ")).toBe(true);
    for (const m of await get([not("is", "resolved")])) expect(m.subject.startsWith("✔ ")).toBe(false);
  });

  it("channels:public (and streams:public) reads shared history; negated it keeps the rest", async () => {
    const pub = (await maya("GET", "/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow: [term("channels", "public")] })).body.messages as Json[];
    expect(pub.some((m) => m.display_recipient === "help-desk" && m.flags.includes("historical"))).toBe(true);
    expect(pub.every((m) => m.type === "stream" && m.display_recipient !== "leadership")).toBe(true);
    expect(await ids(maya, [term("streams", "public")])).toEqual(pub.map((m) => m.id));
    const rest = (await maya("GET", "/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow: [not("channels", "public")] })).body.messages as Json[];
    expect(rest.every((m) => m.type === "private" || m.display_recipient === "leadership")).toBe(true);
    // A channel narrow on an unsubscribed public channel reads its history; is:unread only the user's.
    expect((await ids(maya, [term("channel", "help-desk")])).length).toBeGreaterThan(0);
    expect(await ids(maya, [term("channel", "help-desk"), term("is", "unread")])).toEqual([]);
  });
});

describe("search", () => {
  it("matches word prefixes and quoted phrases, case-insensitively, including the topic", async () => {
    expect(await ids(maya, [term("search", "ZEBRA")])).toEqual(all());
    expect(await ids(maya, [term("search", "zebrafish checklist")])).toEqual(only("eng"));
    expect(await ids(maya, [term("search", '"private zebrafish"')])).toEqual(only("dm"));
    expect(await ids(maya, [term("search", '"zebrafish note private"')])).toEqual([]);
    expect(await ids(maya, [Z, term("search", "narrow-lab")])).toEqual(except("dm", "group"));
    expect(await ids(maya, [Z, not("search", "checklist")])).toEqual(except("eng"));
    expect(await ids(maya, [term("search", "ebrafish")])).toEqual([]); // prefixes only, not infixes
  });

  it("returns match_content and match_subject with highlights, never inside tags or entities", async () => {
    const body = (await maya("GET", "/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [term("search", "zebrafish amp lab")] })).body;
    expect(body.messages).toHaveLength(0); // "amp" is not a word of "&"
    const res = (await maya("GET", "/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [term("search", "zebra narrow")] })).body;
    const eng = res.messages.find((m: Json) => m.id === sent["eng"]);
    expect(eng.match_content).toContain('<strong><span class="highlight">zebrafish</span></strong>');
    expect(eng.match_content).toContain('href="https://example.com/x"');
    expect(eng.match_subject).toBe('<span class="highlight">narrow</span>-lab');
    const general = res.messages.find((m: Json) => m.id === sent["general"]);
    expect(general.match_content).toContain("&amp; friends");
    const plain = (await maya("GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0 })).body;
    expect(plain.messages[0]).not.toHaveProperty("match_content");
  });

  it("matches_narrow returns highlights for the messages that match", async () => {
    const res = await maya("GET", "/messages/matches_narrow", { msg_ids: [sent["eng"], sent["dm"], 99_999_999], narrow: [term("search", "checklist")] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body["messages"])).toEqual([String(sent["eng"])]);
    expect(res.body["messages"][String(sent["eng"])].match_content).toContain('<span class="highlight">checklist</span>');
    const dms = await maya("GET", "/messages/matches_narrow", { msg_ids: [sent["eng"], sent["dm"], sent["group"]], narrow: [term("is", "dm")] });
    expect(Object.keys(dms.body["messages"]).map(Number).sort()).toEqual(only("dm", "group"));
    expect(dms.body["messages"][String(sent["dm"])]).toEqual({ match_content: "<p>private zebrafish note</p>", match_subject: "" });
  });
});

describe("errors", () => {
  const fails = async (narrow: unknown, code: string, msg?: string) => {
    const res = await maya("GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow });
    expect(res.status).toBe(400);
    expect(res.body["code"]).toBe(code);
    if (msg) expect(res.body["msg"]).toBe(msg);
  };
  it("answers BAD_NARROW with a clear message", async () => {
    await fails([term("foo", "bar")], "BAD_NARROW", "Invalid narrow operator: unknown operator foo");
    await fails([term("is", "nothing")], "BAD_NARROW", "Invalid narrow operator: unknown 'is' operand nothing");
    await fails([term("has", "video")], "BAD_NARROW", "Invalid narrow operator: unknown 'has' operand video");
    await fails([term("channel", "nope")], "BAD_NARROW", "Invalid narrow operator: unknown channel nope");
    await fails([term("sender", "nobody@example.com")], "BAD_NARROW", "Invalid narrow operator: unknown user nobody@example.com");
    await fails([term("dm", [424242])], "BAD_NARROW", "Invalid narrow operator: unknown user in [424242]");
    await fails([term("id", "abc")], "BAD_NARROW", "Invalid narrow operator: Invalid message ID");
    await fails([term("channels", "private")], "BAD_NARROW", "Invalid narrow operator: unknown channels operand private");
    await fails([not("near", 5)], "BAD_NARROW");
    await fails([not("with", 5)], "BAD_NARROW");
  });
  it("answers BAD_REQUEST for malformed narrows", async () => {
    await fails({ operator: "is" }, "BAD_REQUEST");
    await fails([term("search", "  ")], "BAD_REQUEST");
    await fails([term("topic", 5)], "BAD_REQUEST");
    await fails([{ operator: "is" }], "BAD_REQUEST");
    await fails([["is"]], "BAD_REQUEST");
    await fails([term("with", 1), term("with", 2)], "BAD_REQUEST");
  });
});
