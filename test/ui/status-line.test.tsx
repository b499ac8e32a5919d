/** The status line's layout: the left part whole first, the right part's pieces given up in order, long notices over up to three rows. */
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { StatusLine, statusLayout } from "../../src/ui/components/StatusLine.js";

const live = { state: { kind: "live" as const }, organization: "Lighthouse Labs", user: "Maya Okafor" };

describe("status line", () => {
  it("gives up the organization, then the user, then the help key before cutting the connection's state", () => {
    expect(statusLayout({ ...live, width: 120 })).toMatchObject({ rows: ["● connected"], right: "Lighthouse Labs · Maya Okafor · ? help" });
    expect(statusLayout({ ...live, width: 50 })).toMatchObject({ rows: ["● connected"], right: "Maya Okafor · ? help" });
    expect(statusLayout({ ...live, width: 20 })).toMatchObject({ rows: ["● connected"], right: "? help" });
    expect(statusLayout({ ...live, width: 12 })).toMatchObject({ rows: ["● connected"], right: "" });
  });

  it("shows a notice too long for one row over up to three, whole words, the last one ending in … when more was cut", () => {
    const notice = "The demo organization lives in memory and is gone at exit; to keep one, run termchat server --zuliprc-dir DIR";
    const two = statusLayout({ ...live, notice, width: 80 });
    expect(two.rows.length).toBe(2);
    expect(two.rows.join(" ").replace(/\s+/g, " ")).toBe(notice);
    expect(two.right).toBe("");
    const cut = statusLayout({ ...live, notice: notice + " " + notice, width: 50 });
    expect(cut.rows.length).toBe(3);
    expect(cut.rows[2]).toMatch(/…$/);
    for (const r of cut.rows) expect(r.length).toBeLessThanOrEqual(50);
    const { lastFrame, unmount } = render(<StatusLine {...live} notice={notice} width={80} />);
    expect(lastFrame()!.split("\n").length).toBe(2);
    unmount();
  });
});
