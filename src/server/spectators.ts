// Spectators: reading an organization's web-public channels without an
// account. The spec permits unauthenticated requests for register and for
// web-public content only; everything else answers as any request without
// credentials does (401 UNAUTHORIZED, "Not logged in…"). The organization's
// `enable_spectator_access` setting turns all of it on or off.
//
// A spectator is read through a stand-in viewer: a guest that exists nowhere
// in the organization, so the usual access rules (a guest reads web-public
// channels and nothing else it was not sent) answer for it, and every
// narrow a spectator may send is further held to web-public channels.

import { badNarrow, notLoggedIn } from "./errors.js";
import { operandText, type NarrowTerm } from "./narrow-parse.js";
import { resolveChannelOperand } from "./narrow-filter.js";
import { ROLE, type Channel, type State, type User } from "./state.js";

/** The stand-in viewer of anonymous requests: no user has this id, and it holds no messages. */
export const SPECTATOR: Readonly<User> = Object.freeze({
  id: -1,
  email: "",
  fullName: "",
  role: ROLE.guest,
  isBot: false,
  botType: null,
  botOwnerId: null,
  isActive: true,
  dateJoined: "",
  timezone: "",
  avatarVersion: 0,
  apiKey: "",
  password: "",
});

/** Operators a spectator's narrow may use: none of them depends on who is reading. */
const SPECTATOR_OPERATORS = new Set(["channel", "channels", "topic", "sender", "has", "search", "near", "id", "with"]);

/** Anonymous access at all: the organization must allow spectators. */
export function requireSpectatorAccess(state: State): void {
  if (!state.realm.enableSpectatorAccess) throw notLoggedIn();
}

/** Whether the organization offers anything to spectators (server_settings says so on the login page). */
export function webPublicAccessEnabled(state: State): boolean {
  return state.realm.enableSpectatorAccess && webPublicChannels(state).length > 0;
}

/** The channels a spectator sees: web-public and not archived, by id. */
export function webPublicChannels(state: State): Channel[] {
  return [...state.channels.values()].filter((c) => c.isWebPublic && !c.isArchived).sort((a, b) => a.id - b.id);
}

/**
 * A spectator's message narrow, as the public service holds it: it must say
 * `channels: web-public` (so that a client whose credentials went missing is
 * told so rather than shown less), use only operators that do not depend on a
 * user, and name no channel but a web-public one.
 */
export function checkSpectatorNarrow(state: State, terms: NarrowTerm[]): void {
  requireSpectatorAccess(state);
  const webPublic = terms.some((t) => t.operator === "channels" && !t.negated && operandText(t) === "web-public");
  if (!webPublic || terms.some((t) => !SPECTATOR_OPERATORS.has(t.operator))) throw notLoggedIn();
  for (const t of terms) {
    if (t.operator !== "channel") continue;
    const channel = resolveChannelOperand(state, t.operand);
    if (!channel || !channel.isWebPublic) throw badNarrow(`unknown web-public channel ${operandText(t)}`);
  }
}

/** The channel when a spectator may read it (web-public, not archived); undefined otherwise. */
export function spectatorChannel(state: State, channel: Channel | undefined): Channel | undefined {
  requireSpectatorAccess(state);
  return channel && channel.isWebPublic && !channel.isArchived ? channel : undefined;
}
