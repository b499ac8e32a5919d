/**
 * A store whose register carried no users (the start asks for them after the first screen):
 * names read as loading until the list is in, changes to users that arrive meanwhile are not
 * undone by the (older) list, and the @-completion waits for the list instead of offering part of it.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { LazyRecords } from "../../src/api/schemas/lazy-records.js";
import { userSchema, type User } from "../../src/api/schemas/common.js";
import { USER_LOADING } from "../../src/model/users.js";
import { JumpIndex } from "../../src/model/jump-index.js";
import { PEOPLE_LOADING, applySuggestion, completionContext, suggestionsFor } from "../../src/ui/autocomplete.js";
import { loadMarkdown, renderMarkdown } from "../../src/render/markdown.js";
import { renderContext } from "../../src/ui/message-layout.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const list = (users: User[]) => new LazyRecords(users, userSchema, "user", (r) => (r as { user_id?: unknown }).user_id);

function storeWithoutUsers() {
  return eg.store({ realm_users: [], user_id: undefined }, { selfIdHint: eg.selfUser.user_id, usersLater: { self: eg.selfUser } });
}

it("names read as loading until the list is in; the user themself is known from the start", () => {
  const s = storeWithoutUsers();
  expect(s.people.complete).toBe(false);
  expect(s.userName(eg.selfUser.user_id)).toBe("Self User");
  expect(s.userName(eg.otherUser.user_id)).toBe(USER_LOADING);
  const names = s.namesVersion;
  s.usersArrived(list([eg.selfUser, eg.otherUser, eg.thirdUser]));
  expect(s.people.complete).toBe(true);
  expect(s.userName(eg.otherUser.user_id)).toBe("Other Person");
  // Rendered bodies name people: they are drawn again.
  expect(s.namesVersion).toBeGreaterThan(names);
  // A user the whole list does not have is not loading any more.
  expect(s.userName(999)).toBe("user 999");
});

it("changes to users that came while the list was on its way win over the list", () => {
  const s = storeWithoutUsers();
  eg.apply(s, { type: "realm_user", op: "update", person: { user_id: eg.otherUser.user_id, full_name: "Other Renamed" } });
  eg.apply(s, { type: "realm_user", op: "add", person: eg.user({ user_id: 60, full_name: "Newcomer" }) });
  // An added user is known at once.
  expect(s.userName(60)).toBe("Newcomer");
  eg.apply(s, { type: "realm_user", op: "update", person: { user_id: eg.thirdUser.user_id, is_active: false } });
  // The list was taken before those changes.
  s.usersArrived(list([eg.selfUser, eg.otherUser, eg.thirdUser]));
  expect(s.userName(eg.otherUser.user_id)).toBe("Other Renamed");
  expect(s.userName(60)).toBe("Newcomer");
  expect(s.users.get(eg.thirdUser.user_id)?.is_active).toBe(false);
  expect(s.userIdByEmail("other@example.test")).toBe(eg.otherUser.user_id);
  // Once the list is in, changes apply as usual (and are not kept to apply again).
  eg.apply(s, { type: "realm_user", op: "update", person: { user_id: eg.otherUser.user_id, full_name: "Other Again" } });
  expect(s.userName(eg.otherUser.user_id)).toBe("Other Again");
});

it("the jump finder indexes everyone once the list is in", () => {
  const s = storeWithoutUsers();
  const index = new JumpIndex(s, []);
  expect(index.query("third").some((r) => r.label.includes("Third Person"))).toBe(false);
  s.usersArrived(list([eg.selfUser, eg.otherUser, eg.thirdUser]));
  expect(index.query("third").some((r) => r.label.includes("Third Person"))).toBe(true);
});

it("@-completion says it is loading, inserts nothing, and offers everyone once the list is in", () => {
  const s = storeWithoutUsers();
  const text = "hi @oth";
  const c = completionContext(text, text.length)!;
  expect(suggestionsFor(s, c)).toEqual([PEOPLE_LOADING]);
  expect(applySuggestion(text, text.length, c, PEOPLE_LOADING)).toEqual({ text, cursor: text.length });
  s.usersArrived(list([eg.selfUser, eg.otherUser, eg.thirdUser]));
  const after = suggestionsFor(s, c);
  expect(after.map((x) => x.label)).toEqual(["Other Person"]);
  expect(applySuggestion(text, text.length, c, after[0]!).text).toBe("hi @**Other Person** ");
});

it("a mention of someone not known yet reads as loading, not as the name typed in it (which may be out of date)", () => {
  const s = storeWithoutUsers();
  expect(renderContext(s, false).userName(eg.otherUser.user_id)).toBe(USER_LOADING);
  s.usersArrived(list([eg.selfUser, eg.otherUser, eg.thirdUser]));
  expect(renderContext(s, false).userName(eg.otherUser.user_id)).toBe("Other Person");
  // A user the whole list does not have: the renderer keeps the name typed in the mention.
  expect(renderContext(s, false).userName(999)).toBeUndefined();
});

it("a mention by name alone is drawn as the user's own when it names them, in any case, before the list is in and after", async () => {
  const s = storeWithoutUsers();
  await loadMarkdown();
  const drawn = (src: string) => renderMarkdown(src, renderContext(s, true), 80);
  const inverse = "\x1b[7m";
  expect(renderContext(s, true).isSelfName("self USER")).toBe(true);
  expect(drawn("@**Self User**")).toContain(inverse);
  expect(drawn("@**Other Person**")).not.toContain(inverse);
  s.usersArrived(list([eg.selfUser, eg.otherUser, eg.thirdUser]));
  expect(drawn("@**self user**")).toContain(inverse);
  expect(drawn("@**Other Person**")).not.toContain(inverse);
  expect(drawn("@**Other Person|2**")).not.toContain(inverse);
  expect(drawn("@**Self User|1**")).toContain(inverse);
});
