// Submessages: the data of interactive messages (polls, to-do lists). A
// message whose content starts with `/poll` or `/todo` gets a first
// submessage from its sender describing the widget; later submessages
// (votes, new options, tasks, strikes) come from POST /submessage.

import type { Message, State } from "./state.js";

export interface Submessage {
  id: number;
  messageId: number;
  senderId: number;
  msgType: string;
  content: string;
}

interface SubmessageStore {
  byMessage: Map<number, Submessage[]>;
  nextId: number;
}

const stores = new WeakMap<State, SubmessageStore>();

function storeOf(state: State): SubmessageStore {
  let store = stores.get(state);
  if (!store) {
    store = { byMessage: new Map(), nextId: 1 };
    stores.set(state, store);
  }
  return store;
}

export function submessagesOf(state: State, messageId: number): readonly Submessage[] {
  return storeOf(state).byMessage.get(messageId) ?? [];
}

export function addSubmessage(state: State, message: Message, senderId: number, msgType: string, content: string): Submessage {
  const store = storeOf(state);
  const sub: Submessage = { id: store.nextId++, messageId: message.id, senderId, msgType, content };
  const list = store.byMessage.get(message.id) ?? [];
  list.push(sub);
  store.byMessage.set(message.id, list);
  return sub;
}

export function dropSubmessages(state: State, messageId: number): void {
  storeOf(state).byMessage.delete(messageId);
}

export function submessageToWire(sub: Submessage): Record<string, unknown> {
  return { msg_type: sub.msgType, content: sub.content, message_id: sub.messageId, sender_id: sub.senderId, id: sub.id };
}

/** An option or task line without its list marker ("- ", "* "). */
function item(line: string): string {
  return line.trim().replace(/^[-*]\s+/, "").trim();
}

/** The widget a message's content starts, as its first submessage's content. */
export function widgetFor(content: string): Record<string, unknown> | null {
  const m = /^\/(poll|todo)(?=\s|$)([\s\S]*)$/.exec(content);
  if (!m) return null;
  const lines = m[2]!.split("\n");
  const first = (lines[0] ?? "").trim();
  const rest = lines.slice(1).map(item).filter((l) => l !== "");
  if (m[1] === "poll") return { widget_type: "poll", extra_data: { question: first, options: rest } };
  const tasks = rest.map((line) => {
    const colon = line.indexOf(":");
    return colon < 0 ? { task: line, desc: "" } : { task: line.slice(0, colon).trim(), desc: line.slice(colon + 1).trim() };
  });
  return { widget_type: "todo", extra_data: { task_list_title: first, tasks } };
}

/** Gives a new message its widget submessage when its content starts one. */
export function startWidget(state: State, message: Message): void {
  const widget = widgetFor(message.content);
  if (widget) addSubmessage(state, message, message.senderId, "widget", JSON.stringify(widget));
}

export function widgetTypeOf(state: State, messageId: number): string | null {
  const first = submessagesOf(state, messageId)[0];
  if (!first) return null;
  try {
    const parsed = JSON.parse(first.content) as { widget_type?: unknown };
    return typeof parsed.widget_type === "string" ? parsed.widget_type : null;
  } catch {
    return null;
  }
}
