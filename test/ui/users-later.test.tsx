/**
 * The first screen before the user list is in (the register asks for no users; sync/user-list.ts):
 * a name the client does not know yet reads as loading, the compose box's @-list says it is
 * loading and inserts nothing, and once the list is in, a change to a user that came while it was
 * on its way (a deactivation that renamed the user) is not undone by the older list.
 */
import { afterEach, expect, it } from "vitest";
import { deactivateUser, getAllUsers } from "../../src/api/routes/users.js";
import { USER_LOADING } from "../../src/model/users.js";
import { PEOPLE_LOADING } from "../../src/ui/autocomplete.js";
import { KEY, channelId, renderApp, type AppHarness } from "./render-app.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

it("names read as loading until the user list is in, the @-list waits for it, and changes made meanwhile stay", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let listTaken = false;
  app = await renderApp({
    machine: {
      usersAfterStart: true,
      // The list is taken from the server at once and handed over only when the test says: what changes meanwhile is newer than it.
      api: {
        getAllUsers: async (client, signal) => {
          const list = await getAllUsers(client, signal);
          listTaken = true;
          await gate;
          return list;
        },
      },
    },
  });
  const a = app;
  await a.waitFor("connected");
  const store = a.machine.store!;
  expect(store.people.complete).toBe(false);
  await a.until(() => listTaken, "the user list taken from the server");

  const omar = a.ctx.server.accounts.find((x) => x.email.startsWith("omar@"))!;
  const omarId = omar.userId;
  expect(store.userName(omarId)).toBe(USER_LOADING);
  // Deactivated with the profile deleted: renamed and inactive, by events newer than the list taken.
  const eventsBefore = store.lastEventId;
  await deactivateUser(a.ctx.client(), omarId, { actions: { delete_profile: true } });
  await a.until(() => store.lastEventId >= eventsBefore + 2, "the deactivation's events");

  // The sidebar's direct messages name their people: not yet known, so loading.
  await a.waitFor(`@ ${USER_LOADING}`);
  // Writing to someone new: the people picker waits for the list too.
  await a.press("\t", "x");
  await a.waitFor("New direct message");
  await a.waitFor(PEOPLE_LOADING.label);
  await a.press(KEY.escape);
  // So does a form that picks people (an administrator's: deactivate a user).
  await a.press("\u000b");
  await a.waitFor("type to filter");
  await a.press(..."deactivate".split(""));
  await a.waitFor(/▌ Deactivate a user/);
  await a.press(KEY.enter);
  await a.waitFor("People are still loading; try again in a moment.");
  await a.press("h", "h");
  await a.sidebarTo("general");
  await a.press(KEY.enter, "\t");
  const general = { kind: "channel" as const, channelId: channelId(a, "general") };
  await a.until(() => (store.messages.list(general)?.ids.length ?? 0) > 0, "#general's messages");
  await a.press("G", "r");
  await a.waitFor("Enter send");
  await a.press("hi @oma");
  await a.waitFor(PEOPLE_LOADING.label);
  await a.press(KEY.enter); // nothing to insert yet, and nothing is sent
  expect(a.frame()).toContain("hi @oma");
  expect(a.frame()).toContain(PEOPLE_LOADING.label);

  release();
  await a.until(() => store.people.complete, "the user list in the store");
  // The list said "Omar Haddad", active; the events that came meanwhile say otherwise, and win.
  expect(store.userName(omarId)).toBe(`Deleted User ${omarId}`);
  expect(store.users.get(omarId)?.is_active).toBe(false);
  await a.until(() => !a.frame().includes(PEOPLE_LOADING.label), "the @-list redrawn");
  expect(a.frame()).not.toMatch(/@ Omar Haddad/);
  await a.press(KEY.backspace, KEY.backspace, KEY.backspace, "len");
  await a.waitFor(/▌@ Lena \w+/);
  await a.press(KEY.enter);
  await a.waitFor(/hi @\*\*Lena \w+\*\* /);
});
