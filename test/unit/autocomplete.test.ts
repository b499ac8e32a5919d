import { describe, expect, it } from "vitest";
import { applySuggestion, completionContext, suggestionsFor, type CompletionContext } from "../../src/ui/autocomplete.js";
import * as eg from "../fixtures/example.js";

const ada = eg.user({ user_id: 20, full_name: "Ada Lovelace", email: "ada@example.test" });
const adaTwin = eg.user({ user_id: 21, full_name: "Ada Lovelace", email: "ada2@example.test" });
const adam = eg.user({ user_id: 22, full_name: "Adam Smith", email: "adam@example.test" });
const gone = eg.user({ user_id: 23, full_name: "Adaline Gone", email: "gone@example.test", is_active: false });
const grace = eg.user({ user_id: 24, full_name: "Grace Hopper", email: "admiral@example.test" });

function store() {
  const s = eg.store({
    realm_users: [eg.selfUser, ada, adaTwin, adam, grace],
    realm_non_active_users: [gone],
    realm_user_groups: [
      eg.userGroup({ id: 50, name: "backend", members: [20, 22] }),
      eg.userGroup({ id: 51, name: "role:everyone", members: [1, 20], is_system_group: true }),
    ],
    subscriptions: [eg.subscription({ stream_id: 10, name: "general" }), eg.subscription({ stream_id: 11, name: "design team" })],
    never_subscribed: [eg.channel({ stream_id: 12, name: "gardening" })],
    realm_emoji: { "7": eg.realmEmoji({ id: "7", name: "tada_parrot" }) },
  });
  s.setTopics(10, [
    { name: "deploys", max_id: 300 },
    { name: "Design review", max_id: 200 },
    { name: "", max_id: 100 },
  ]);
  return s;
}

function ctxAt(text: string): CompletionContext {
  const c = completionContext(text, text.length);
  if (!c) throw new Error(`no completion for ${JSON.stringify(text)}`);
  return c;
}

describe("which token the cursor completes", () => {
  it("recognises each trigger at the start of a word only", () => {
    expect(ctxAt("hi @ad")).toMatchObject({ kind: "mention", query: "ad", start: 3 });
    expect(ctxAt("@_gr")).toMatchObject({ kind: "mention", silent: true, query: "gr" });
    expect(ctxAt("ping @*back")).toMatchObject({ kind: "mention", groupsOnly: true, query: "back" });
    expect(ctxAt("see #gen")).toMatchObject({ kind: "channel", query: "gen", start: 4 });
    expect(ctxAt("see #general>dep")).toMatchObject({ kind: "topic", channelName: "general", query: "dep" });
    expect(ctxAt("see #**general**>Dep")).toMatchObject({ kind: "topic", channelName: "general", query: "dep", typed: "Dep" });
    expect(ctxAt("nice :tad")).toMatchObject({ kind: "emoji", query: "tad" });
    expect(completionContext("mail a@b", 8)).toBeUndefined(); // an email address
    expect(completionContext("at 12:30", 8)).toBeUndefined();
    expect(completionContext("# Heading", 9)).toBeUndefined();
    expect(completionContext("done @**Ada Lovelace** ", 23)).toBeUndefined();
  });

  it("completes the token at the cursor, not at the end of the text", () => {
    const text = "hi @gr and more";
    expect(completionContext(text, 6)).toMatchObject({ kind: "mention", query: "gr" });
  });

  it("does not complete inside a code block", () => {
    expect(completionContext("```\n@ad", 7)).toBeUndefined();
    expect(completionContext("```\ncode\n```\n@ad", 16)).toMatchObject({ kind: "mention" });
  });
});

describe("suggestions", () => {
  it("matches users by name, word or email prefix, leaves out deactivated users, and puts the user last", () => {
    const s = store();
    const labels = suggestionsFor(s, ctxAt("@ad")).map((x) => `${x.label} ${x.detail ?? ""}`);
    expect(labels).toEqual(["Ada Lovelace ada@example.test", "Ada Lovelace ada2@example.test", "Adam Smith adam@example.test", "Grace Hopper admiral@example.test"]);
    expect(suggestionsFor(s, ctxAt("@smi")).map((x) => x.label)).toEqual(["Adam Smith"]);
    expect(suggestionsFor(s, ctxAt("@")).at(-2)?.label).toBe("Self User");
  });

  it("puts active users first", () => {
    const s = store();
    const now = 1_800_000_000_000;
    s.setPresences({ "24": { active_timestamp: now / 1000 - 5, idle_timestamp: now / 1000 - 5 } });
    expect(suggestionsFor(s, ctxAt("@"), 8, now)[0]?.label).toBe("Grace Hopper");
  });

  it("adds the user id only when the name is ambiguous", () => {
    const s = store();
    const [first] = suggestionsFor(s, ctxAt("@ada"));
    expect(first?.insert).toBe("@**Ada Lovelace|20**");
    expect(suggestionsFor(s, ctxAt("@grace"))[0]?.insert).toBe("@**Grace Hopper**");
    expect(suggestionsFor(s, ctxAt("@_grace"))[0]?.insert).toBe("@_**Grace Hopper**");
  });

  it("offers user groups (not system groups) and wildcard mentions", () => {
    const s = store();
    expect(suggestionsFor(s, ctxAt("@*")).map((x) => x.insert)).toEqual(["@*backend*"]);
    expect(suggestionsFor(s, ctxAt("@_*back")).map((x) => x.insert)).toEqual(["@_*backend*"]);
    expect(suggestionsFor(s, ctxAt("@back")).map((x) => x.insert)).toContain("@*backend*");
    expect(suggestionsFor(s, ctxAt("@al")).map((x) => x.insert)).toContain("@**all**");
  });

  it("offers channels, subscribed first, by name or word", () => {
    const s = store();
    expect(suggestionsFor(s, ctxAt("#g")).map((x) => x.insert)).toEqual(["#**general**", "#**gardening**"]);
    expect(suggestionsFor(s, ctxAt("#team")).map((x) => x.insert)).toEqual(["#**design team**"]);
  });

  it("offers a channel's topics, the empty topic by its display name, and a new topic as typed", () => {
    const s = store();
    const all = suggestionsFor(s, ctxAt("#general>"));
    expect(all.map((x) => x.label)).toEqual(["deploys", "Design review", "general chat"]);
    expect(all[2]?.insert).toBe("#**general>**");
    expect(suggestionsFor(s, ctxAt("#**general**>de")).map((x) => x.insert)).toEqual(["#**general>deploys**", "#**general>Design review**", "#**general>de**"]);
    expect(suggestionsFor(s, ctxAt("#general>Brand New")).map((x) => x.insert)).toEqual(["#**general>Brand New**"]);
    expect(suggestionsFor(s, ctxAt("#nowhere>x"))).toEqual([]);
  });

  it("offers emoji, the organization's custom ones included", () => {
    const s = store();
    const inserts = suggestionsFor(s, ctxAt(":tad")).map((x) => x.insert);
    expect(inserts).toContain(":tada:");
    expect(inserts).toContain(":tada_parrot:");
    expect(suggestionsFor(s, ctxAt(":+1"))[0]?.label).toContain("👍");
  });
});

describe("accepting a suggestion", () => {
  it("replaces the token and adds a space, except after a channel (so > can follow)", () => {
    const s = store();
    const text = "hi @gra there";
    const c = completionContext(text, 7)!;
    const r = applySuggestion(text, 7, c, suggestionsFor(s, c)[0]!);
    expect(r.text).toBe("hi @**Grace Hopper** there");
    expect(r.cursor).toBe("hi @**Grace Hopper**".length);
    const ch = ctxAt("see #gen");
    const r2 = applySuggestion("see #gen", 8, ch, suggestionsFor(s, ch)[0]!);
    expect(r2.text).toBe("see #**general**");
    const t = ctxAt(r2.text + ">dep");
    expect(applySuggestion(r2.text + ">dep", r2.text.length + 4, t, suggestionsFor(s, t)[0]!).text).toBe("see #**general>deploys** ");
  });
});
