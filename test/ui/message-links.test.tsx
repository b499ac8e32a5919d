/**
 * The links popup of a message, on a prepared store: hostile link texts and
 * addresses never reach the terminal raw, and y copies the chosen link
 * (made absolute against the organization) through OSC 52 as base64.
 */
import { expect, it } from "vitest";
import { messageLinks } from "../../src/render/message-links.js";
import { MessageLinks } from "../../src/ui/popups/MessageLinks.js";
import { fakeSession, renderOnFake } from "../fixtures/fake-session.js";

it("lists a message's links with hostile names made harmless, and copies the chosen one with OSC 52", async () => {
  const fake = fakeSession();
  const md = "[\u001b[2J\u001bPowned\u0007report\u202e.pdf](/user_uploads/2/ab/cd/report.pdf) and https://example.com/page\u001b[31m";
  const links = messageLinks(md, fake.store.realm.url);
  expect(links.map((l) => [l.upload, l.url])).toEqual([[true, "/user_uploads/2/ab/cd/report.pdf"], [false, "https://example.com/page"]]);
  let closed = 0;
  const screen = await renderOnFake(fake, <MessageLinks ctx={fake.ctx} links={links} close={() => closed++} />);
  await screen.until(() => screen.frame().includes("Links and files (2)"), "the popup");
  expect(screen.frame()).not.toMatch(/[\u001b\u0007\u202e]/);
  expect(screen.frame()).toContain("report.pdf");
  await screen.press("y");
  await screen.until(() => closed === 1, "the popup closes");
  const written = fake.recorded.filter((r) => r.name === "writeTerminal").map((r) => r.args[0] as string);
  expect(written).toEqual([`\u001b]52;c;${Buffer.from("https://chat.example.test/user_uploads/2/ab/cd/report.pdf").toString("base64")}\u0007`]);
  const said = fake.recorded.filter((r) => r.name === "notify").map((r) => r.args[0] as string);
  expect(said[0]).toMatch(/^Copied the link to .*report.*\.pdf \(OSC 52 clipboard\)$/);
  expect(said[0]).not.toMatch(/[\u001b\u0007\u202e]/);
  await screen.unmount();
});
