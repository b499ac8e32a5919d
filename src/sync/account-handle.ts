/**
 * What the screen is given of an account: the store to read (and one feed to
 * hear what changed), the connection's state, what is kept locally (messages
 * waiting to be sent, unsent drafts, the cache's start), and every action of
 * the account bound to it — the actions of src/sync/actions, the compose
 * box's ways out (journal, typing, send) and the few requests the views make.
 * One door: the screen never holds the runtime, its machine, outbox, journal
 * or cache, and cannot name them (test/unit/ui-server-door.test.ts).
 */
import type { Narrow } from "../model/narrow.js";
import type { Store } from "../model/store.js";
import type { AccountChange, Notice } from "./account-changes.js";
import type { AccountRuntime } from "./account-runtime.js";
import { failed, type ActionResult } from "./actions/result.js";
import { spectatorActions } from "./spectator.js";
import { setStatus, setMarkReadPolicy, createUserGroup, deactivateUser, registerPushToken } from "./actions/account.js";
import { changeChannel, changeSubscriptions, setTopicVisibility, createChannelFolder, changeChannelFolder } from "./actions/channels.js";
import { deleteLocalDraft, deleteServerDraft } from "./actions/drafts.js";
import { uploadLocalFile, addressToOpen, saveLink, myAttachments, removeAttachment } from "./actions/files.js";
import { setStarred, markChannelRead, markTopicRead, markAllRead, markNarrowRead } from "./actions/flags.js";
import { fetchUploadBytes } from "./actions/images.js";
import { loadRecent, findDate } from "./actions/finding.js";
import { editMessage, deleteMessage, messageSource, messageHistory } from "./actions/messages.js";
import { readReceipts, createSnippet, editSnippet, deleteSnippet, createNavigationView, editNavigationView, removeNavigationView } from "./actions/personal.js";
import { toggleReaction } from "./actions/reactions.js";
import { scheduleMessage, rescheduleMessage, editScheduledMessage, cancelScheduledMessage, sendScheduledNow, setReminder, cancelReminder } from "./actions/scheduled.js";
import { lookUpUser, lookUpUserByEmail } from "./actions/users.js";
import { togglePollVote, addPollOption, toggleTask, addTodoTask } from "./actions/widgets.js";
import { draftKey, editKey, type JournalEntry } from "./draft-journal.js";
import type { OutboxEntry, SendTarget } from "./outbox-file.js";
import type { ConnectionState } from "./update-machine.js";
import type { ViewInput } from "./upkeep/view-upkeep.js";

export type { AccountChange, Notice } from "./account-changes.js";
export type { ConnectionState } from "./update-machine.js";
export type { JournalEntry } from "./draft-journal.js";
export type { OutboxEntry, SendTarget } from "./outbox-file.js";
export type { ViewInput } from "./upkeep/view-upkeep.js";
export type { PaneFocus } from "./upkeep/pane-upkeep.js";
export type { Note } from "./upkeep/notifications.js";
export { draftKey, editKey };
export { SPECTATOR_LINE } from "./spectator.js";

/** Actions that take the account first. */
const ACCOUNT_ACTIONS = {
  setStatus, setMarkReadPolicy, createUserGroup, deactivateUser, registerPushToken,
  changeChannel, changeSubscriptions, setTopicVisibility, createChannelFolder, changeChannelFolder,
  deleteLocalDraft, deleteServerDraft,
  uploadLocalFile, addressToOpen, saveLink, myAttachments, removeAttachment,
  setStarred, markChannelRead, markTopicRead, markAllRead,
  fetchUploadBytes,
  editMessage, deleteMessage, messageSource, messageHistory,
  readReceipts, createSnippet, editSnippet, deleteSnippet, createNavigationView, editNavigationView, removeNavigationView,
  scheduleMessage, rescheduleMessage, editScheduledMessage, cancelScheduledMessage, sendScheduledNow, setReminder, cancelReminder,
  lookUpUser, lookUpUserByEmail,
} as const;

/** Actions that take the account, then its current store. */
const STORE_ACTIONS = { markNarrowRead, toggleReaction, togglePollVote, addPollOption, toggleTask, addTodoTask, loadRecent, findDate } as const;

type WithoutAccount<F> = F extends (account: never, ...args: infer A) => infer R ? (...args: A) => R : never;
type WithoutAccountAndStore<F> = F extends (account: never, store: Store, ...args: infer A) => infer R ? (...args: A) => R : never;

/** Every action of one account, bound to it. */
export type AccountActions = { readonly [K in keyof typeof ACCOUNT_ACTIONS]: WithoutAccount<(typeof ACCOUNT_ACTIONS)[K]> } & {
  readonly [K in keyof typeof STORE_ACTIONS]: WithoutAccountAndStore<(typeof STORE_ACTIONS)[K]>;
} & {
  /** Every key pressed (presence, a quick reconnect after a long idle). */
  keyPressed(): void;
  /** The compose box opened on a conversation: its restored text, if any. */
  composeOpened(target: SendTarget): string | undefined;
  /** The compose box's text changed: journaled at once, and the others see us typing. */
  composeChanged(target: SendTarget, text: string): void;
  composeClosed(): void;
  /** Sends through the outbox (queued while offline, sent exactly once); the draft is forgotten. */
  send(target: SendTarget, text: string): OutboxEntry;
  /** The text of an edit of this message in progress (kept in the journal), if any. */
  editText(messageId: number): string | undefined;
  /** The text of an edit in progress changed. */
  editChanged(messageId: number, text: string): void;
  /** An edit in progress is given up (nothing was changed). */
  editDropped(messageId: number): void;
  /** The view's place in a narrow: a rebuild fetches the narrow around it again. */
  keepPlace(narrow: Narrow, messageId: number): void;
  /** A channel's topics (autocomplete, the topic prompt); the store gets them. */
  fetchTopics(channelId: number): Promise<void>;
};

/** The local draft journal, as the screen may read it. */
export interface JournalView {
  all(): JournalEntry[];
  targetOf(key: string): SendTarget | undefined;
}

export interface AccountHandle {
  /** Which account (the organization and the user), the same across runs. */
  readonly key: string;
  /** What the user calls the account (its zuliprc name, else the address). */
  readonly name: string;
  /** The address the account is signed in as ("" for a spectator). */
  readonly email: string;
  /** Reading without an account (web-public channels only): every action that writes answers `SPECTATOR_LINE` (spectator.ts). */
  readonly spectator: boolean;
  /** The store as it is now (undefined before the first one); a rebuild replaces it (see `subscribe`). */
  store(): Store | undefined;
  connection(): ConnectionState;
  /** Everything that changes in the account, in one feed. */
  subscribe(fn: (change: AccountChange) => void): () => void;
  /** Notices told before the screen listened, once. */
  takeNotices(): Notice[];
  /** What the screen shows of the account: the account keeps it loaded and marks it read. */
  readonly view: { set(v: Partial<ViewInput>): void };
  readonly actions: AccountActions;
  /** Messages waiting to be sent in a narrow, oldest first. */
  pendingIn(narrow: Narrow): OutboxEntry[];
  readonly journal: JournalView;
  /** The register's scalars and settings the store does not hold (limits checked before sending). */
  registerInfo(): Record<string, unknown> | undefined;
  /** Whether this store is the local cache's from the last run (not the server's yet). */
  fromCache(store: Store | undefined): boolean;
  /** The narrow open when the cache was written: where a start from the cache opens. */
  readonly startNarrow: Narrow | undefined;
  /** Why the cache was not used, said once. */
  readonly cacheNote: string | undefined;
  /**
   * Something the screen keeps per account for as long as the account is open (the search
   * history, the image previews): made on first use.
   */
  keep<T>(slot: symbol, make: () => T): T;
}

export type RegistryChange =
  | { kind: "opened"; key: string }
  | { kind: "closed"; key: string }
  /** The account on screen changed (undefined: none is open). */
  | { kind: "active"; key: string | undefined };

/** What a screen may see of the registry: the accounts' handles, which is on screen, and its feed. */
export interface AccountsView {
  list(): AccountHandle[];
  get(key: string): AccountHandle | undefined;
  active(): AccountHandle | undefined;
  setActive(key: string): void;
  subscribe(fn: (change: RegistryChange) => void): () => void;
  /** Ends an account's connection, keeping what it showed (its row says disconnected); its local state is saved. */
  disconnect(key: string): Promise<void>;
  /** Connects an account again from the start (a disconnected one, or one whose key was refused); false when it cannot be. */
  reconnect(key: string): Promise<boolean>;
  /** Adding and removing accounts, where the program allows it (several accounts open). */
  readonly admin?: AccountsAdmin;
}

/** Accounts added and removed at run time. */
export interface AccountsAdmin {
  /** Logs in with a password (as `termchat login` does), writes NAME.zuliprc (0600) in termchat's accounts directory, and connects it. */
  add(a: { name: string; site: string; username: string; password: string }): Promise<ActionResult<string>>;
  /** Closes an account and removes its file from termchat's accounts directory. */
  remove(key: string): Promise<ActionResult<string>>;
}

/** What the server's actions work with: one account's connection, outbox, journal and draft sync. */
type ActionAccount = Parameters<typeof setStatus>[0];

/** The actions of src/sync/actions, bound to one account (and its current store, for those that read it). */
export function bindServerActions(account: ActionAccount, store: () => Store | undefined): Pick<AccountActions, keyof typeof ACCOUNT_ACTIONS | keyof typeof STORE_ACTIONS> {
  const bound: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(ACCOUNT_ACTIONS)) bound[name] = (...args: unknown[]) => (fn as (...a: unknown[]) => unknown)(account, ...args);
  for (const [name, fn] of Object.entries(STORE_ACTIONS)) {
    bound[name] = (...args: unknown[]) => {
      const now = store();
      return now ? (fn as (...a: unknown[]) => unknown)(account, now, ...args) : Promise.resolve(failed("Not connected yet: try again in a moment"));
    };
  }
  return bound as Pick<AccountActions, keyof typeof ACCOUNT_ACTIONS | keyof typeof STORE_ACTIONS>;
}

function bindActions(rt: AccountRuntime): AccountActions {
  return Object.freeze({
    ...bindServerActions(rt, () => rt.store),
    keyPressed: () => rt.keyPressed(),
    composeOpened: (target: SendTarget) => rt.composeOpened(target),
    composeChanged: (target: SendTarget, text: string) => rt.composeChanged(target, text),
    composeClosed: () => rt.composeClosed(),
    send: (target: SendTarget, text: string) => rt.send(target, text),
    editText: (id: number) => rt.journal.get(editKey(id)),
    editChanged: (id: number, text: string) => rt.journal.update(editKey(id), text),
    editDropped: (id: number) => rt.journal.clear(editKey(id)),
    keepPlace: (narrow: Narrow, id: number) => rt.machine.setAnchor(narrow, id),
    fetchTopics: (channelId: number) => rt.commands.fetchTopics(channelId),
  });
}

/** The handle of a runtime (the accounts registry makes one per account). */
export function accountHandle(rt: AccountRuntime): AccountHandle {
  const kept = new Map<symbol, unknown>();
  return Object.freeze({
    key: rt.key,
    name: rt.name,
    email: rt.selfEmail,
    spectator: rt.spectator,
    store: () => rt.store,
    connection: () => rt.machine.state,
    subscribe: (fn: (change: AccountChange) => void) => rt.subscribe(fn),
    takeNotices: () => rt.takeNotices(),
    view: Object.freeze({ set: (v: Partial<ViewInput>) => rt.setView(v) }),
    actions: rt.spectator ? spectatorActions(bindActions(rt), () => rt.machine.clock.now()) : bindActions(rt),
    pendingIn: (narrow: Narrow) => rt.outbox.visibleIn(narrow),
    journal: Object.freeze({ all: () => rt.journal.all(), targetOf: (key: string) => rt.journal.targetOf(key) }),
    registerInfo: () => rt.machine.lastRegister as Record<string, unknown> | undefined,
    fromCache: (store: Store | undefined) => rt.cache?.isCached(store) ?? false,
    startNarrow: rt.cache?.startNarrow,
    cacheNote: rt.cache?.note,
    keep<T>(slot: symbol, make: () => T): T {
      if (!kept.has(slot)) kept.set(slot, make());
      return kept.get(slot) as T;
    },
  });
}
