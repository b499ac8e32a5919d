/**
 * Popups' key hints on a fake session, at the widths the App gives popups in
 * 120-, 80- and 50-column terminals (beside the sidebar, then the whole
 * width): every hint is on screen whole — beside the title, or on in the
 * bottom border — never cut off ("Esc …").
 */
import type { ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { messageLinks } from "../../src/render/message-links.js";
import { splitHints } from "../../src/ui/components/Framed.js";
import { MessageLinks } from "../../src/ui/popups/MessageLinks.js";
import { People } from "../../src/ui/popups/People.js";
import { PopupHost } from "../../src/ui/popups/PopupHost.js";
import { fakeSession, renderOnFake, type FakeSession } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

/** A popup as the App hosts it, `width` columns wide. */
async function host(fake: FakeSession, width: number, popup: (close: () => void) => ReactNode) {
  const screen = await renderOnFake(fake, <PopupHost stack={[{ id: 1, render: popup }]} onClose={() => {}} width={width} height={14} />);
  unmount = screen.unmount;
  return screen;
}

/** The popup's title row and bottom border: where its hints are. */
function hintRows(frame: string): string {
  const lines = frame.split("\n");
  return [lines[1] ?? "", lines.findLast((l) => /^[╰└]/.test(l)) ?? ""].join("\n");
}

// 120 columns: 89 beside the sidebar; 80: 57; 50: the whole width.
describe.each([89, 57, 50])("a popup %i columns wide", (width) => {
  it("shows every key hint of the people list whole", async () => {
    const fake = fakeSession();
    const screen = await host(fake, width, (close) => <People close={close} onOpen={() => {}} onCard={() => {}} />);
    await screen.until(() => screen.frame().includes("People"), "the list");
    const rows = hintRows(screen.frame());
    for (const hint of ["j/k move", "Enter message", "u card", "/ filter", "Esc close"]) expect(rows).toContain(hint);
    expect(rows).not.toContain("…");
    for (const line of screen.frame().split("\n")) expect(line.length).toBeLessThanOrEqual(width);
  });

  it("shows every key hint of a message's links whole", async () => {
    const fake = fakeSession();
    const links = messageLinks("[report.pdf](/user_uploads/2/ab/cd/report.pdf) and https://example.com/page", fake.store.realm.url);
    const screen = await host(fake, width, (close) => <MessageLinks ctx={fake.ctx} links={links} close={close} />);
    await screen.until(() => screen.frame().includes("Links and files (2)"), "the popup");
    const rows = hintRows(screen.frame());
    for (const hint of ["Enter / o open", "s save", "S save as", "y copy", "Esc close"]) expect(rows).toContain(hint);
    expect(rows).not.toContain("…");
  });
});

describe("hints split between the title row and the bottom border", () => {
  it("keeps them in order and whole, and ends with … only when even the border is too narrow", () => {
    expect(splitHints("a · b · c", 20, 20)).toEqual({ top: "a · b · c", bottom: "" });
    expect(splitHints("one · two · three", 9, 20)).toEqual({ top: "one · two", bottom: "three" });
    expect(splitHints("one · two · three", 2, 20)).toEqual({ top: "", bottom: "one · two · three" });
    expect(splitHints("one · two · three · four", 3, 13)).toEqual({ top: "one", bottom: "two · three …" });
  });
});
