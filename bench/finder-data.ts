/**
 * The jump finder's benches' data: a store as the client has it on a data set once every
 * channel's topic list and the recent view's first batch are in, and what people type.
 */
import { encodeParams } from "../src/api/http.js";
import { registerRequest } from "../src/api/register-request.js";
import { getMessagesResponseSchema, topicsResponseSchema } from "../src/api/schemas/responses.js";
import { registerResponseSchema } from "../src/api/schemas/register.js";
import { addRecentMessages } from "../src/model/recent-store.js";
import { firstRecentFetch } from "../src/model/recent-loading.js";
import { Store } from "../src/model/store.js";
import { startBenchServer, wholeRegisterParams } from "./util.js";

export async function finderData(data: string) {
  const { url, email, apiKey, stop } = await startBenchServer(data);
  const auth = "Basic " + Buffer.from(`${email}:${apiKey}`).toString("base64");
  async function api(method: string, path: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const body = encodeParams(params);
    const res = method === "GET" ? await fetch(`${url}/api/v1/${path}?${body}`, { headers: { authorization: auth } }) : await fetch(`${url}/api/v1/${path}`, { method, headers: { authorization: auth }, body });
    return res.json();
  }

  const registered = JSON.stringify(await api("POST", "register", registerRequest(wholeRegisterParams()).params));
  const probe = new Store(registerResponseSchema.parse(JSON.parse(registered)));
  const channelIds = [...new Set([...probe.channels.keys(), ...probe.channelsModel.unsubscribed.keys(), ...probe.channelsModel.neverSubscribed.keys()])];
  const topicLists = new Map<number, ReturnType<typeof topicsResponseSchema.parse>["topics"]>();
  for (const id of channelIds) {
    const r = topicsResponseSchema.safeParse(await api("GET", `users/me/${id}/topics`));
    if (r.success) topicLists.set(id, r.data.topics); // private channels one cannot see are left out
  }
  const first = getMessagesResponseSchema.parse(await api("GET", "messages", { ...firstRecentFetch(), apply_markdown: false }));
  /** A store as the client has it once the topic lists and the recent view's first batch are in. */
  function loadedStore(): Store {
    const s = new Store(registerResponseSchema.parse(JSON.parse(registered)));
    for (const [id, topics] of topicLists) s.setTopics(id, topics);
    addRecentMessages(s, first.messages);
    return s;
  }
  const topicCount = [...topicLists.values()].reduce((n, t) => n + t.length, 0);
  /** What people type: names, channels, topics, a channel>topic, sigils, a view, typos that only match fuzzily. */
  const queries = (store: Store): string[] => {
    const someChannel = store.channels.get([...store.channels.keys()][42] as number)?.name ?? "general";
    const otherChannel = store.channel(channelIds[1500] as number)?.name ?? "general";
    return ["maya okafor", "priya", "okafor", "general", someChannel, otherChannel, "design review", "incident 4733", "relpln", `gen>deploys`, "@hana", "#cache inv", "recent", "inbox", "zoe ya", "latncy spk"];
  };
  return { loadedStore, channelIds, topicCount, queries, stop };
}
