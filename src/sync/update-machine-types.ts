/**
 * What the update machine (update-machine.ts) is given and what it tells: its options, the
 * endpoints it uses, its connection states, and why each store was built.
 */
import type { ApiClient } from "../api/http.js";
import type { getEvents, RegisterLooks, RegisterParams } from "../api/routes/events.js";
import type { RegisterResponse } from "../api/schemas/register.js";
import type { Store } from "../model/store.js";
import type { Clock } from "./clock.js";
import type { GetMessagesFn } from "./refetch.js";
import type { UserListApi } from "./user-list.js";

export type ConnectionState =
  | { kind: "connecting" }
  | { kind: "live" }
  /** `abandoned`: the client gave up an answer itself (too large, or too slow; see isAbandonedAnswer). */
  | { kind: "reconnecting"; attempt: number; error: string; abandoned?: boolean }
  | { kind: "failed"; error: string } // not retried: credentials refused
  | { kind: "stopped" };

/** The endpoints the machine uses; tests replace them. */
export interface SyncApi extends UserListApi {
  /** `looks` are given the answer before its parse and its check, when the implementation can. */
  register(client: ApiClient, params: RegisterParams, signal?: AbortSignal, looks?: RegisterLooks): Promise<RegisterResponse>;
  getEvents: typeof getEvents;
  deleteQueue(client: ApiClient, queueId: string): Promise<unknown>;
  getMessages: GetMessagesFn;
}

export interface UpdateMachineOptions {
  /** Backoff bounds of transient failures. Default 100 ms doubling to 10 s. */
  backoff?: { baseMs: number; maxMs: number };
  /** Backoff before rebuilding after a malformed response. Default 1 s doubling to 60 s. */
  rebuildBackoff?: { baseMs: number; maxMs: number };
  /** Consecutive failures before the UI is told about them. Default 3. */
  quietFailures?: number;
  /** Added to the server's long-poll timeout for the request timeout. Default 15 s. */
  pollMarginMs?: number;
  clock?: Clock;
  random?: () => number;
  api?: Partial<SyncApi>;
  /**
   * How often a spectator's store is rebuilt, as it is sent no events. Default 60 s.
   */
  spectatorRefreshMs?: number;
  /**
   * Consulted when the first register fails (before any store exists): `fail` ends the
   * start with that line, `retryInMs` waits and says `note`; undefined: the usual backoff.
   */
  startGuard?: (err: unknown, attempt: number) => Promise<StartVerdict | undefined>;
  /**
   * `start()` returns before the user list is in (it comes in the background): the app draws
   * its first screen meanwhile. Default: `start()` waits for it. Rebuilds always wait for it.
   */
  usersAfterStart?: boolean;
  /**
   * Runs when the user list's answer begins to arrive, before it is read and parsed. The app
   * collects the start's garbage there (the register's body and parsed JSON), so that the list's
   * own parse does not pile on top of it: the highest memory of a start is then the lower.
   */
  beforeUserList?: () => void;
}

export type StartVerdict = { fail: string } | { retryInMs: number; note: string };

/** Why a store was built: the start, a queue the server forgot, a malformed answer, or a spectator's periodic refresh. */
export type StoreReason = "start" | "queue-lost" | "malformed" | "refresh";

export interface StoreInfo {
  reason: StoreReason;
  register: RegisterResponse;
  /** The store this one replaces (after a rebuild). */
  previous?: Store;
}
