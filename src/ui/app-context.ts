/**
 * What features (key actions, popups, views) get to work with. A feature is
 * a set of key bindings plus the actions they name; it reaches the store,
 * the account's actions and the UI state only through an ActionContext.
 */
import type { ReactNode } from "react";
import type { Message } from "../api/schemas/common.js";
import type { Narrow } from "../model/narrow.js";
import type { Store } from "../model/store.js";
import type { ActionResult } from "../sync/actions/result.js";
import type { AccountHandle, AccountsAdmin, SendTarget } from "../sync/account-handle.js";
import type { Settings } from "../config/settings.js";
import type { Binding, Keymap } from "./keymap.js";
import type { OrgSummary } from "./organizations.js";
import type { SidebarRow } from "./sidebar-rows.js";
import type { EditingState, UiAction, UiState } from "./ui-state.js";

export type PopupRender = (close: () => void) => ReactNode;

export interface ComposeOptions {
  /** Text to start with (quote-reply, mention); appended to a restored draft. */
  initialText?: string;
  editing?: EditingState;
}

export interface ActionContext {
  store: Store;
  /** The account on screen: its store, and its actions bound to it. */
  account: AccountHandle;
  ui: UiState;
  /** The UI state as of now, ahead of the next render (keys in one burst each see the previous one's effect). */
  latest(): UiState;
  dispatch(a: UiAction): void;
  keymap: Keymap;
  settings: Settings;
  /** The open narrow (undefined in the Inbox view). */
  narrow: Narrow | undefined;
  /** The message selected in the message pane, if any. */
  selected: Message | undefined;
  /** Loaded messages of the open narrow, oldest first. */
  messages: Message[];
  selectedIndex: number;
  paneHeight: number;
  /** The sidebar's rows as this UI state shows them. */
  sidebarRows: SidebarRow[];
  /** The channel (and topic) under the cursor of the open list view (Inbox, Followed topics), if any. */
  listTarget(): { channelId: number; topic?: string } | undefined;
  openNarrow(n: Narrow, opts?: { focus?: "sidebar" | "messages"; select?: number }): void;
  openPopup(render: PopupRender): void;
  openCompose(target: SendTarget, opts?: ComposeOptions): void;
  /** Inserts text at the compose box's cursor when the box is open on the draft `key` (else false). */
  insertIntoCompose?(text: string, key: string): boolean;
  notify(text: string, kind?: "info" | "error"): void;
  /** Runs an action (from src/sync/actions); a failure shows its message, success the given text. */
  attempt(work: () => Promise<ActionResult<unknown>>, done?: string): void;
  /** The open organizations, when there are several (undefined: one account alone). */
  organizations?: Organizations;
  /** Writes an escape sequence to the terminal (bell, notifications, clipboard). */
  writeTerminal(sequence: string): void;
  quit(): void;
}

/** What the screen may do with the other open accounts. */
export interface Organizations {
  /** Every open account, in the order they were configured. */
  list(): OrgSummary[];
  /** Puts an account on screen, opening a narrow of it when one is given. */
  show(key: string, narrow?: Narrow): void;
  /**
   * Goes on to the first organization after the one on screen (round) where `find` finds a
   * narrow in its store, and opens it there; false when none has one.
   */
  followUnread(find: (store: Store) => Narrow | undefined): boolean;
  /** Adding and removing accounts, when the program allows it. */
  admin?: AccountsAdmin;
  /** Ends an account's connection (its row says disconnected). */
  disconnect(key: string): Promise<void>;
  /** Connects an account again; false when it cannot be. */
  reconnect(key: string): Promise<boolean>;
  /** Every open account's summary and its store as it is now (the combined Inbox reads them). */
  stores(): Array<{ org: OrgSummary; store: Store | undefined }>;
}

/** A key's action; `key` is the key that ran it (one action may stand for several keys, as 1…9). */
export type Action = (ctx: ActionContext, key?: string) => void;

export interface Feature {
  name: string;
  bindings: Binding[];
  actions: Record<string, Action>;
}

