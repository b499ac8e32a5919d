/**
 * A user's card (`u` on a message: its sender): name, email, role, time
 * zone and their local time now, status text and emoji, presence. Shown at
 * once from the store, then refreshed from GET /users/{id}.
 */
import { Text } from "ink";
import { useEffect, useState } from "react";
import type { User } from "../../api/schemas/common.js";
import type { PresenceStatus } from "../../model/presence.js";
import type { Store } from "../../model/store.js";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { formatDateTime } from "../../render/time.js";
import type { ActionContext } from "../app-context.js";
import { useScreenState } from "../contexts.js";
import { displayKey } from "../keymap.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { usePresenceVersion } from "../hooks/use-store.js";
import { reactionLabel } from "../message-layout.js";
import { useTheme, type Role } from "../theme.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export function openUserCard(ctx: ActionContext, userId: number): void {
  ctx.openPopup((close) => <UserCard userId={userId} close={close} />);
}

const ROLES: Record<number, string> = { 100: "Owner", 200: "Administrator", 300: "Moderator", 400: "Member", 600: "Guest" };

export function roleName(u: User): string {
  if (u.is_bot) return "Bot";
  if (u.role !== undefined && ROLES[u.role]) return ROLES[u.role]!;
  if (u.is_owner) return "Owner";
  if (u.is_admin) return "Administrator";
  if (u.is_guest) return "Guest";
  return "Member";
}

function validZone(tz: string): boolean {
  if (!tz) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** "Europe/Berlin — Fri, Nov 20, 2026, 14:05 there", or why it is not known. */
export function localTimeText(tz: string, nowMs: number, twentyFourHour?: boolean): string {
  if (!tz) return "not set";
  const zone = sanitizeInline(tz);
  if (!validZone(tz)) return `${zone} (unknown time zone)`;
  return t`${zone} — ${formatDateTime(nowMs / 1000, { timeZone: tz, ...(twentyFourHour !== undefined && { twentyFourHour }) })} there`;
}

export interface CardLine {
  label: string;
  value: string;
  color?: Role;
}

const PRESENCE: Record<PresenceStatus, Role> = { active: "ok", idle: "warn", offline: "count" };

/** The card's rows for a user (pure: store, user record, now). */
export function cardLines(store: Store, u: User, nowMs: number): CardLine[] {
  const lines: CardLine[] = [];
  const email = u.delivery_email ?? u.email;
  lines.push({ label: "Email", value: sanitizeInline(email) });
  let role = roleName(u);
  if (u.is_bot && u.bot_owner_id != null) role += ` (owner: ${sanitizeInline(store.userName(u.bot_owner_id))})`;
  lines.push({ label: "Role", value: role });
  if (!u.is_active) lines.push({ label: "Account", value: "deactivated", color: "error" });
  const twentyFour = store.personal.settings["twenty_four_hour_time"];
  lines.push({ label: "Local time", value: localTimeText(u.timezone, nowMs, typeof twentyFour === "boolean" ? twentyFour : undefined) });
  const status = store.people.statuses.get(u.user_id);
  if (status && (status.text || status.emojiName)) {
    const emoji = status.emojiName ? reactionLabel(store, { emoji_name: status.emojiName, emoji_code: status.emojiCode, reaction_type: status.reactionType || "unicode_emoji" }) + " " : "";
    lines.push({ label: "Status", value: `${emoji}${sanitizeInline(status.text)}`.trim() });
  }
  if (!store.realm.presenceDisabled) {
    const presence = store.presenceStatus(u.user_id, nowMs);
    const p = status?.away ? { text: "away", color: "warn" as const } : { text: `${glyphs()[presence]} ${presence}`, color: PRESENCE[presence] };
    lines.push({ label: "Presence", value: p.text, color: p.color });
  } else if (status?.away) {
    lines.push({ label: "Presence", value: "away", color: "warn" });
  }
  if (u.date_joined) lines.push({ label: "Joined", value: sanitizeInline(u.date_joined.slice(0, 10)) });
  return lines;
}

function UserCard({ userId, close }: { userId: number; close: () => void }) {
  const { store, account, keymap } = useScreenState();
  usePresenceVersion(store); // presence follows the server live
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const [fresh, setFresh] = useState<User | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    let live = true;
    void account.actions.lookUpUser(userId).then((r) => {
      if (!live) return;
      if (r.ok) setFresh(r.value);
      else setError(r.error.message);
    });
    const tick = setInterval(() => setNow(Date.now()), 30_000); // the local time stays current
    return () => {
      live = false;
      clearInterval(tick);
    };
  }, [account, userId]);

  useKeypress(
    (name) => {
      if (keymap.action("popup.user", name) === "userCard.close") close();
      return true;
    },
    { priority: 50 },
  );

  const user = fresh ?? store.users.get(userId);
  return (
    <Popup title={user ? sanitizeInline(user.full_name) : `User ${userId}`} hint={`${displayKey(keymap.keysFor("userCard.close")[0] ?? "escape")} close`} width={width} height={height}>
      {user ? (
        cardLines(store, user, now).map((l) => (
          <Text key={l.label} wrap="truncate">
            <Text dimColor>{l.label.padEnd(12)}</Text>
            <Text color={l.color ? theme[l.color] : undefined}>{l.value}</Text>
          </Text>
        ))
      ) : (
        <Text dimColor>{error ? `Could not load: ${sanitizeInline(error)}` : t("Loading…")}</Text>
      )}
      {user && error ? <Text dimColor wrap="truncate">{`(not refreshed: ${sanitizeInline(error)})`}</Text> : null}
    </Popup>
  );
}
