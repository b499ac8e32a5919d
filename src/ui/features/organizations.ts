/**
 * Several organizations: a key puts the next one on screen, the number keys
 * the one of that number (its place in the sidebar), and the palette lists
 * them by name; U lists the unread conversations of all of them (the
 * combined Inbox). With one account open these keys say so and do nothing.
 */
import type { ActionContext, Feature } from "../app-context.js";
import { openSettings } from "../../config/settings.js";
import { perform } from "../../sync/actions/result.js";
import { cycleKey, type OrgSummary } from "../organizations.js";
import { openAllInbox } from "../popups/AllInbox.js";
import { openConfirm } from "../popups/Confirm.js";
import { openForm, type FormValues } from "../popups/Form.js";
import type { PaletteCommand } from "../palette-commands-context.js";

function several(ctx: ActionContext): NonNullable<ActionContext["organizations"]> | undefined {
  const orgs = ctx.organizations;
  if (orgs && orgs.list().length > 1) return orgs;
  ctx.notify("Only one organization is open (several accounts configured connect together)");
  return undefined;
}

function cycle(ctx: ActionContext): void {
  const orgs = several(ctx);
  const key = orgs && cycleKey(orgs.list(), 1);
  if (orgs && key) orgs.show(key);
}

function jump(ctx: ActionContext, n: number): void {
  const orgs = several(ctx);
  if (!orgs || !Number.isInteger(n)) return;
  const o = orgs.list()[n - 1];
  if (!o) return ctx.notify(`There is no organization ${n} (${orgs.list().length} are open)`);
  orgs.show(o.key);
}

/**
 * Saves which accounts connect at start: those connected now, with `name` added or taken out
 * (the one just reconnected or disconnected).
 */
function saveConnected(ctx: ActionContext, name: string, connected: boolean): void {
  const now = (ctx.organizations?.list() ?? []).filter((o) => o.trouble !== "disconnected").map((o) => o.name);
  const connect = connected ? [...new Set([...now, name])] : now.filter((n) => n !== name);
  ctx.attempt(
    () =>
      perform(async () => {
        const file = await openSettings();
        file.save({ organizations: { ...ctx.settings.organizations, connect } });
        if (file.problems.length && !file.path) throw new Error(file.problems[0]);
      }),
    connected ? `${name} connects again (and at start)` : `${name} is disconnected (and stays so at start; Reconnect from the palette)`,
  );
}

/** Disconnect or reconnect an account, the choice saved for the next start. */
function connectionCommands(o: OrgSummary): PaletteCommand[] {
  const reconnect: PaletteCommand = {
    id: `org.reconnect.${o.key}`,
    title: `Reconnect ${o.name}`,
    detail: o.trouble ?? "connected",
    run: (c) => {
      void c.organizations?.reconnect(o.key).then((ok) => (ok ? saveConnected(c, o.name, true) : c.notify(`${o.name} cannot be connected again from here`, "error")));
    },
  };
  if (o.trouble === "disconnected") return [reconnect];
  const disconnect: PaletteCommand = {
    id: `org.disconnect.${o.key}`,
    title: `Disconnect ${o.name}`,
    detail: "what it shows stays; nothing new arrives",
    run: (c) => void c.organizations?.disconnect(o.key).then(() => saveConnected(c, o.name, false)),
  };
  return [disconnect, reconnect];
}

function str(v: FormValues, name: string): string {
  const x = v[name];
  return typeof x === "string" ? x.trim() : "";
}

/** Adding an account (a password login writing its zuliprc), and removing each one. */
function adminCommands(ctx: ActionContext, orgs: OrgSummary[]): PaletteCommand[] {
  const admin = ctx.organizations?.admin;
  if (!admin) return [];
  const add: PaletteCommand = {
    id: "org.add",
    title: "Add an account (log in with a password)",
    detail: "writes a zuliprc in termchat's accounts directory",
    run: (c) =>
      openForm(c, {
        title: "Add an account",
        subtitle: "The password is exchanged for an API key and not kept",
        fields: [
          { kind: "text", name: "name", label: "Name (for the sidebar and --account)", validate: (v) => (/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(v.trim()) ? undefined : "letters, digits, . _ -") },
          { kind: "text", name: "site", label: "Server URL", hint: "https://chat.example.com" },
          { kind: "text", name: "username", label: "Email (or username)" },
          { kind: "text", name: "password", label: "Password", secret: true },
        ],
        check: (v) => (["site", "username", "password"].some((k) => !str(v, k)) ? "Every field is needed" : undefined),
        onSubmit: (v) => {
          c.notify(`Logging in to ${str(v, "site")}…`);
          c.attempt(() => admin.add({ name: str(v, "name"), site: str(v, "site"), username: str(v, "username"), password: typeof v["password"] === "string" ? v["password"] : "" }), `${str(v, "name")} added`);
        },
      }),
  };
  const removes = orgs.map(
    (o): PaletteCommand => ({
      id: `org.remove.${o.key}`,
      title: `Remove the account ${o.name}`,
      detail: "closes it and deletes its zuliprc from termchat's accounts directory",
      run: (c) =>
        openConfirm(c, {
          title: `Remove ${o.name}?`,
          lines: ["Its connection ends and its file in termchat's accounts directory is deleted.", "Messages waiting to be sent stay on disk for when it is added again."],
          action: "remove",
          danger: true,
          onConfirm: () => c.attempt(() => admin.remove(o.key), `${o.name} removed`),
        }),
    }),
  );
  return [add, ...removes];
}

/** The palette's entries: the combined Inbox, each other organization to switch to, and each one's connection. */
export function organizationCommands(ctx: ActionContext): PaletteCommand[] {
  const orgs = ctx.organizations?.list() ?? [];
  if (orgs.length < 2) return [];
  const all: PaletteCommand = { id: "org.inbox", title: "Unread in every organization", detail: "the combined Inbox", run: openAllInbox };
  const switches = orgs
    .filter((o) => !o.active)
    .map((o) => ({
      id: `org.show.${o.key}`,
      title: `Switch to ${o.name}`,
      detail: [o.realm, o.unread ? `${o.unread} unread` : "", o.trouble].filter(Boolean).join(" · "),
      run: (c: ActionContext) => c.organizations?.show(o.key),
    }));
  return [all, ...switches, ...orgs.flatMap(connectionCommands), ...adminCommands(ctx, orgs)];
}

const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];

export const organizationsFeature: Feature = {
  name: "organizations",
  bindings: [
    { action: "nextOrganization", keys: ["O"], context: "global", help: "Next organization (several accounts open)" },
    { action: "organizationNumber", keys: DIGITS, context: "global", help: "The organization of that number, as the sidebar lists them" },
    { action: "allInbox", keys: ["U"], context: "global", help: "Unread in every organization, grouped by organization" },
    { action: "allInbox.close", keys: ["escape", "q", "U"], context: "popup.allInbox", help: "Close" },
    { action: "allInbox.down", keys: ["j", "down"], context: "popup.allInbox", help: "Next row" },
    { action: "allInbox.up", keys: ["k", "up"], context: "popup.allInbox", help: "Previous row" },
    { action: "allInbox.open", keys: ["enter"], context: "popup.allInbox", help: "Open the conversation in its organization" },
  ],
  actions: {
    nextOrganization: cycle,
    organizationNumber: (ctx, key) => jump(ctx, Number(key)),
    allInbox: openAllInbox,
  },
};
