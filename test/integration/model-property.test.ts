/**
 * Property test of the live model against the reference server: a client
 * store is built from a real register, a seeded random sequence of real
 * mutations runs through the HTTP API as several demo users, the store
 * applies the events its queue receives, and at the end it must agree with a
 * fresh register (unreads per topic and DM, mentions, subscriptions, topic
 * policies, starred, recent DMs, scheduled messages, reminders, saved snippets,
 * navigation views), with the server's topic lists and with
 * loaded message lists. Mutation kinds the server does not offer (404/405)
 * are skipped; the test reports which ran.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import type { ApiClient } from "../../src/api/http.js";
import { getEvents, register } from "../../src/api/routes/events.js";
import {
  deleteMessage,
  getMessages,
  markTopicAsRead,
  sendMessage,
  updateMessage,
  updateMessageFlags,
  updateMessageFlagsForNarrow,
} from "../../src/api/routes/messages.js";
import { addNavigationView, updateNavigationView } from "../../src/api/routes/navigation-views.js";
import { addReaction, removeReaction } from "../../src/api/routes/reactions.js";
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet } from "../../src/api/routes/saved-snippets.js";
import { createReminder, createScheduledMessage, deleteReminder, deleteScheduledMessage, updateScheduledMessage } from "../../src/api/routes/scheduled-messages.js";
import { subscribe, unsubscribe, updateSubscriptionSettings } from "../../src/api/routes/subscriptions.js";
import { getTopics } from "../../src/api/routes/topics.js";
import { updateUserTopic, type VisibilityPolicy } from "../../src/api/routes/user-topics.js";
import { narrowToApi, type Narrow } from "../../src/model/narrow.js";
import { senders } from "../../src/model/loaded-messages.js";
import { recentLoadState } from "../../src/model/recent-loading.js";
import { Store } from "../../src/model/store.js";
import { loadRecentStep } from "../../src/sync/recent-loader.js";
import { CLIENT_CAPABILITIES } from "../../src/sync/register-params.js";
import { compareWithRegister } from "../fixtures/model-compare.js";
import { withServer } from "../fixtures/server.js";
import { prng } from "../fixtures/prng.js";

const SEEDS = [1, 2, 3];
const STEPS = 50;
const TOPICS = ["alpha", "beta", "Alpha", "gamma", "✔ beta"];

/** What `a` lacks and what it has extra, compared with `b`. */
function setDiff<T>(a: readonly T[], b: readonly T[]): { missing: T[]; extra: T[] } {
  const sa = new Set(a);
  const sb = new Set(b);
  return { missing: b.filter((x) => !sa.has(x)), extra: a.filter((x) => !sb.has(x)) };
}

const ran = new Map<string, number>();
const skipped = new Set<string>();
const stale: string[] = [];
afterAll(() => {
  console.log(`model property test: mutation kinds run ${JSON.stringify(Object.fromEntries(ran))}; not offered by the server: ${[...skipped].join(", ") || "none"}; lists the model marked stale: ${stale.join(", ") || "none"}`);
});

async function registerStore(client: ApiClient): Promise<Store> {
  const reg = await register(client, { apply_markdown: false, client_gravatar: true, slim_presence: true, client_capabilities: CLIENT_CAPABILITIES });
  return new Store(reg);
}

/** Applies everything queued for the store (the server emits events before it answers a mutation). */
async function drain(client: ApiClient, store: Store): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const { events } = await getEvents(client, { queue_id: store.queueId!, last_event_id: store.lastEventId, dont_block: true }, { timeoutMs: 5000 });
    const real = events.filter((e) => e.type !== "heartbeat");
    store.applyAll(events);
    if (real.length === 0) return;
  }
  throw new Error("the event queue did not drain");
}

async function loadList(client: ApiClient, store: Store, narrow: Narrow): Promise<void> {
  const res = await getMessages(client, {
    anchor: "newest",
    num_before: 1000,
    num_after: 0,
    narrow: narrowToApi(narrow, store.realm.featureLevel),
    apply_markdown: false,
    allow_empty_topic_name: true,
  });
  store.addFetched(narrow, res.messages, { foundOldest: res.found_oldest, foundNewest: res.found_newest, direction: "around" });
}

/** Loads the recent conversations view's batches until the whole history is in (bounded). */
async function loadAllRecent(client: ApiClient, store: Store): Promise<void> {
  const state = recentLoadState();
  for (let i = 0; i < 50 && (await loadRecentStep(client, store, state, { wanted: Number.POSITIVE_INFINITY, complete: 0 })); i++);
  expect(state).toMatchObject({ foundOldest: true, error: undefined });
}

/** Each conversation of the recent model (but topics of the channels left out) as key → "newest id | senders". */
function recentSummary(store: Store, leaveOut: Set<number>): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of store.recent.all()) {
    if (c.kind === "topic" && (leaveOut.has(c.channelId) || !store.isSubscribed(c.channelId))) continue;
    out.set(c.key, `${c.maxId} | ${senders(c.messages).sort((a, b) => a - b).join(",")}`);
  }
  return out;
}

async function runSeed(seed: number): Promise<void> {
  const ctx = await withServer({ rateLimit: false });
  try {
    const rand = prng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const owner = ctx.client();
    const people = ctx.server.accounts.filter((a) => a.role !== "bot" && a.role !== "guest").slice(0, 6);
    const clients = new Map(people.map((a) => [a.userId, ctx.client(a)]));
    const store = await registerStore(owner);
    const me = store.selfId;
    const channels = [...store.channels.values()].filter((c) => !c.invite_only).map((c) => c.stream_id).slice(0, 4);
    expect(channels.length).toBeGreaterThan(1);
    for (const id of channels) store.setTopics(id, (await getTopics(owner, id, { allow_empty_topic_name: true })).topics);
    const lists: Narrow[] = [
      { kind: "channel", channelId: channels[0]! },
      { kind: "topic", channelId: channels[1]!, topic: "alpha" },
      { kind: "all-dms" },
      { kind: "starred" },
      { kind: "mentioned" },
      { kind: "dm", userIds: [people.find((p) => p.userId !== me)!.userId] },
    ];
    for (const n of lists) await loadList(owner, store, n);
    await loadAllRecent(owner, store);
    /** Channels unsubscribed at some point: their conversations missed events meanwhile (not compared). */
    const resubscribed = new Set<number>();
    const sent: number[] = [...store.unreads.allIds()].slice(0, 20);
    const senderOf = new Map<number, number>();
    const reactions: Array<{ userId: number; messageId: number; emoji: string }> = [];
    const ownerName = store.userName(me);
    // The owner's own lists: IDs still on the server (taken out when deleted, so a delete never meets a 404).
    const own = { scheduled: [] as number[], reminders: [] as number[], snippets: [] as number[] };
    const later = () => Math.floor(Date.now() / 1000) + 3600 + Math.floor(rand() * 3600);
    const takeOne = (ids: number[]) => ids.splice(Math.floor(rand() * ids.length), 1)[0];

    const kinds: Record<string, () => Promise<unknown>> = {
      sendChannel: async () => {
        const from = pick(people);
        const mention = rand() < 0.2 ? ` @**${ownerName}**` : rand() < 0.1 ? " @**all**" : "";
        const r = await sendMessage(clients.get(from.userId)!, { type: "stream", to: pick(channels), topic: pick(TOPICS), content: `hello ${seed}${mention}` });
        sent.push(r.id);
        senderOf.set(r.id, from.userId);
      },
      sendDm: async () => {
        const from = pick(people.filter((p) => p.userId !== me));
        const others = people.filter((p) => p.userId !== from.userId && rand() < 0.4).map((p) => p.userId);
        const to = rand() < 0.7 ? [...new Set([me, ...others])] : others.length ? others : [me];
        const r = await sendMessage(clients.get(from.userId)!, { type: "direct", to, content: rand() < 0.2 ? `psst @**${ownerName}**` : "psst" });
        sent.push(r.id);
        senderOf.set(r.id, from.userId);
      },
      markRead: () => updateMessageFlags(owner, { messages: sent.filter(() => rand() < 0.3), op: "add", flag: "read" }),
      markUnread: () => updateMessageFlags(owner, { messages: sent.filter(() => rand() < 0.15), op: "remove", flag: "read" }),
      star: () => updateMessageFlags(owner, { messages: [pick(sent)], op: rand() < 0.6 ? "add" : "remove", flag: "starred" }),
      react: async () => {
        const r = { userId: pick(people).userId, messageId: pick(sent), emoji: pick(["tada", "smile"]) };
        await addReaction(clients.get(r.userId)!, r.messageId, { emoji_name: r.emoji });
        reactions.push(r);
      },
      unreact: async () => {
        const r = reactions.length ? reactions.splice(Math.floor(rand() * reactions.length), 1)[0]! : { userId: me, messageId: pick(sent), emoji: "tada" };
        await removeReaction(clients.get(r.userId)!, r.messageId, { emoji_name: r.emoji });
      },
      muteChannel: () => updateSubscriptionSettings(owner, [{ stream_id: pick(channels), property: pick(["is_muted", "in_home_view", "pin_to_top"] as const), value: rand() < 0.5 }]),
      topicPolicy: () =>
        updateUserTopic(owner, { stream_id: pick(channels), topic: pick(TOPICS), visibility_policy: Math.floor(rand() * 4) as VisibilityPolicy }),
      moveTopic: () =>
        updateMessage(clients.get(me)!, pick(sent), {
          topic: pick(TOPICS),
          ...(rand() < 0.3 ? { stream_id: pick(channels) } : {}),
          propagate_mode: pick(["change_one", "change_later", "change_all"] as const),
        }),
      editContent: async () => {
        const mine = [...senderOf].filter(([, from]) => from !== me);
        if (!mine.length) return;
        const [id, from] = pick(mine);
        const content = pick([`edited @**${ownerName}**`, "edited", "edited @**all**"]);
        await updateMessage(clients.get(from)!, id, { content });
      },
      markTopicRead: () => markTopicAsRead(owner, pick(channels), pick(TOPICS)),
      markNarrowUnread: () =>
        updateMessageFlagsForNarrow(owner, {
          anchor: "newest",
          num_before: 5,
          num_after: 0,
          narrow: [{ operator: "channel", operand: pick(channels) }],
          op: "remove",
          flag: "read",
        }),
      deleteMessage: async () => {
        const id = pick(sent);
        const m = store.messages.byId.get(id);
        if (m?.type === "private") return; // recent-DM bookkeeping after deletes is a known gap
        await deleteMessage(owner, id);
      },
      schedule: async () => {
        const r = await createScheduledMessage(owner, { type: "stream", to: pick(channels), topic: pick(TOPICS), content: `later ${seed}`, at: later() });
        own.scheduled.push(r.scheduled_message_id);
      },
      reschedule: async () => {
        if (own.scheduled.length) await updateScheduledMessage(owner, pick(own.scheduled), { content: `changed ${seed}`, at: later() });
      },
      unschedule: async () => {
        const id = takeOne(own.scheduled);
        if (id !== undefined) await deleteScheduledMessage(owner, id);
      },
      remind: async () => own.reminders.push((await createReminder(owner, { message_id: pick(sent), at: later() })).reminder_id),
      unremind: async () => {
        const id = takeOne(own.reminders);
        if (id !== undefined) await deleteReminder(owner, id);
      },
      snippet: async () => {
        const id = own.snippets.length && rand() < 0.5 ? takeOne(own.snippets) : undefined;
        if (id === undefined) own.snippets.push((await createSavedSnippet(owner, { title: pick(TOPICS), content: `snippet ${seed}` })).saved_snippet_id);
        else if (rand() < 0.5) await deleteSavedSnippet(owner, id);
        else {
          await editSavedSnippet(owner, id, { title: pick(TOPICS) });
          own.snippets.push(id);
        }
      },
      navigationView: async () => {
        const fragment = pick(["recent", "feed", "narrow/is/starred"]);
        if (store.personal.navigationViews.has(fragment)) await updateNavigationView(owner, fragment, { is_pinned: rand() < 0.5 });
        else await addNavigationView(owner, { fragment, is_pinned: rand() < 0.5 });
      },
      resubscribe: async () => {
        const id = pick(channels.slice(1));
        resubscribed.add(id);
        const name = store.channelName(id)!;
        if (store.isSubscribed(id)) await unsubscribe(owner, { subscriptions: [name] });
        else await subscribe(owner, { subscriptions: [{ name }] });
      },
    };
    const weights: Array<[string, number]> = [
      ["sendChannel", 6], ["sendDm", 3], ["markRead", 3], ["markUnread", 2], ["star", 2], ["react", 2], ["unreact", 1],
      ["muteChannel", 2], ["topicPolicy", 2], ["moveTopic", 2], ["editContent", 2], ["deleteMessage", 1], ["resubscribe", 1],
      ["markTopicRead", 1], ["markNarrowUnread", 1], ["schedule", 1], ["reschedule", 1], ["unschedule", 1], ["remind", 1], ["unremind", 1],
      ["snippet", 1], ["navigationView", 1],
    ];
    const total = weights.reduce((n, [, w]) => n + w, 0);
    for (let step = 0; step < STEPS; step++) {
      let r = rand() * total;
      const kind = weights.find(([, w]) => (r -= w) < 0)?.[0] ?? "sendChannel";
      if (skipped.has(kind)) continue;
      try {
        await kinds[kind]!();
        ran.set(kind, (ran.get(kind) ?? 0) + 1);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.status === 404 || err.status === 405) skipped.add(kind); // not offered by this server
        // Other refusals (no permission, nothing to do) emit no events: fine.
      }
      await drain(owner, store);
      expect(store.recount(), `after step ${step} (${kind})`).toEqual([]);
    }

    const fresh = await register(owner, { apply_markdown: false, client_gravatar: true, slim_presence: true, client_capabilities: CLIENT_CAPABILITIES });
    expect(compareWithRegister(store, fresh), `seed ${seed}`).toEqual([]);

    // Recent conversations followed live must equal those of a fresh store that loads the whole history.
    const freshStore = new Store(fresh);
    await loadAllRecent(owner, freshStore);
    const live = recentSummary(store, resubscribed);
    const reloaded = recentSummary(freshStore, resubscribed);
    expect([...live].filter(([k, v]) => reloaded.get(k) !== v), `recent conversations, seed ${seed}`).toEqual([]);
    expect([...reloaded].filter(([k, v]) => live.get(k) !== v), `recent conversations, seed ${seed}`).toEqual([]);

    // Topic lists: those still exact must equal the server's; others are refetched as sync would, then must too.
    for (const id of channels) {
      const server = (await getTopics(owner, id, { allow_empty_topic_name: true })).topics;
      if (!store.topicsLoaded.has(id)) store.setTopics(id, server);
      const mine = store.topicsOf(id).map((t) => `${t.name}@${t.maxId}`);
      expect(setDiff(mine, server.map((t) => `${t.name}@${t.max_id}`)), `topics of ${id}, seed ${seed}`).toEqual({ missing: [], extra: [] });
    }

    // Loaded lists hold exactly what the server now returns for their narrow.
    for (const n of lists) {
      if (n.kind === "channel" || n.kind === "topic") if (!store.isSubscribed(n.channelId)) continue;
      if (store.messages.list(n)?.stale) {
        // The model said it cannot know everything that belongs here: refetch, as a view would.
        stale.push(n.kind);
        store.messages.dropList(n);
        await loadList(owner, store, n);
      }
      const res = await getMessages(owner, { anchor: "newest", num_before: 1000, num_after: 0, narrow: narrowToApi(n, store.realm.featureLevel), apply_markdown: false, allow_empty_topic_name: true });
      const ids = store.messages.list(n)?.ids ?? [];
      expect(setDiff(ids, res.messages.map((m) => m.id)), `list ${JSON.stringify(n)}, seed ${seed}`).toEqual({ missing: [], extra: [] });
    }
  } finally {
    await ctx.close();
  }
}

describe("the live model against the reference server", () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${STEPS} random mutations leave the store equal to a fresh register`, async () => {
      await runSeed(seed);
    }, 20_000);
  }
});
