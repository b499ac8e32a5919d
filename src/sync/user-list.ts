/**
 * The user list, asked for apart from the register. A big organization's users are four fifths
 * of a register's answer, and the first screen needs a handful of them (the names in the
 * sidebar's direct messages; each message carries its sender's name): the register asks for
 * none, the user's own record comes beside it (`GET /users/me`, it names the user), and the
 * whole list (`GET /users`) once the first screen is drawn. Until it is in, a name the store
 * does not know reads as loading (Store.userName), never as a wrong one, and changes to users
 * that arrive meanwhile are applied again over the list (Users.fill).
 */
import { ApiError } from "../api/errors.js";
import type { ApiClient } from "../api/http.js";
import type { LazyRecords } from "../api/schemas/lazy-records.js";
import type { RegisterResponse } from "../api/schemas/register.js";
import type { User } from "../api/schemas/common.js";
import { compactUser } from "../api/schemas/user-record.js";
import { Store } from "../model/store.js";
import { jitteredDelay, sleep, type Clock } from "./clock.js";

export interface UserListApi {
  getOwnUser(client: ApiClient, signal?: AbortSignal): Promise<User>;
  /** `beforeParse` runs once the answer's headers are in, before its body is read and parsed. */
  getAllUsers(client: ApiClient, signal?: AbortSignal, beforeParse?: () => void): Promise<{ members: LazyRecords<User> }>;
}

// The users' routes and their schemas load when first asked for: a cached start draws its first
// screen before either is needed (its store names the user; the list comes after the register).
const routes = () => import("../api/routes/users.js");

export const userListApi: UserListApi = {
  getOwnUser: async (client, signal) => (await routes()).getOwnUser(client, signal),
  getAllUsers: async (client, signal, beforeParse) => (await routes()).getAllUsers(client, signal, beforeParse),
};

/**
 * A store from a register's answer. One that carries the user list (`user_id` comes with it)
 * is whole; else the user's own record, asked for beside the register, names the user, and the
 * users the store it replaces knew (the local cache's, on a start) stand in until the list is in.
 */
export async function storeFromRegister(reg: RegisterResponse, self: () => Promise<User>, previous: Store | undefined): Promise<Store> {
  if (reg.user_id !== undefined) return new Store(reg);
  const me = compactUser(await self());
  const store = new Store(reg, { selfIdHint: me.user_id, usersLater: { self: me } });
  if (previous) for (const [id, u] of previous.users) if (!store.users.has(id)) store.users.set(id, u);
  return store;
}

export interface FillOptions {
  client: ApiClient;
  api: UserListApi;
  clock: Clock;
  signal: AbortSignal;
  random?: () => number;
  /** Whether the store still wants its users (false once another replaced it). */
  wanted: () => boolean;
  /** Runs when the list's answer begins to arrive, before it is parsed (see UpdateMachineOptions.beforeUserList). */
  beforeParse?: () => void;
}

/**
 * Fetches the user list into `store`, retrying failures with a backoff (100 ms doubling to
 * 10 s) while the store is wanted. Throws only when stopped or when the server refuses the
 * credentials (the poll hears of it too).
 */
export async function fillUsers(store: Store, o: FillOptions): Promise<void> {
  for (let attempt = 0; !store.people.complete; attempt++) {
    try {
      const { members } = await o.api.getAllUsers(o.client, o.signal, o.beforeParse);
      if (o.wanted() && !store.people.complete) store.usersArrived(members);
      return;
    } catch (err) {
      if (o.signal.aborted || !o.wanted() || (err instanceof ApiError && err.isAuthFailure)) throw err;
      await sleep(o.clock, jitteredDelay(attempt, { baseMs: 100, maxMs: 10_000 }, o.random), o.signal);
    }
  }
}
