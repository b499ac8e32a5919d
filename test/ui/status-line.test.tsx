/** The status line's layout: the left part whole first, the right part's pieces given up in order, long notices over up to three rows. */
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { StatusLine, statusLayout } from "../../src/ui/components/StatusLine.js";

const live = { state: { kind: "live" as const }, organization: "Lighthouse Labs", user: "Maya Okafor" };

describe("status line", () => {
  it("gives up the organization, then the user, then the help key before cutting the connection's state", () => {
    expect(statusLayout({ ...live, width: 120 })).toMatchObject({ left: "● connected", right: "Lighthouse Labs · Maya Okafor · ? help" });
    expect(statusLayout({ ...live, width: 50 })).toMatchObject({ left: "● connected", right: "Maya Okafor · ? help" });
    expect(statusLayout({ ...live, width: 20 })).toMatchObject({ left: "● connected", right: "? help" });
    expect(statusLayout({ ...live, width: 12 })).toMatchObject({ left: "● connected", right: "" });
    // A notice that fits takes the state's place.
    expect(statusLayout({ ...live, notice: "Message moved.", width: 50 })).toMatchObject({ above: [], left: "Message moved.", right: "Maya Okafor · ? help" });
  });

  it("shows a notice too long for one row over up to four above the state's row, whole words, … when more was cut", () => {
    const notice = "The demo organization lives in memory and is gone at exit; to keep one, run termchat server --zuliprc-dir DIR";
    const two = statusLayout({ ...live, notice, width: 80 });
    expect(two.above.length).toBe(2);
    expect(two.above.join(" ").replace(/\s+/g, " ")).toBe(notice);
    expect(two).toMatchObject({ left: "● connected", right: "Lighthouse Labs · Maya Okafor · ? help" });
    const cut = statusLayout({ ...live, notice: notice + " " + notice, width: 50 });
    expect(cut.above.length).toBe(4);
    expect(cut.above[3]).toMatch(/…$/);
    for (const r of cut.above) expect(r.length).toBeLessThanOrEqual(50);
    const { lastFrame, unmount } = render(<StatusLine {...live} notice={notice} width={80} />);
    const lines = lastFrame()!.split("\n");
    expect(lines.length).toBe(3);
    expect(lines[2]).toMatch(/^● connected +Lighthouse Labs · Maya Okafor · \? help$/);
    unmount();
  });

  it("draws a note (the demo's, a done action) in the accent colour and a warning in the warning colour, on one row or several", () => {
    const short = { ...live, notice: "Message moved.", width: 50 };
    expect(statusLayout({ ...short, noticeKind: "info" }).color).toBe("accent");
    expect(statusLayout({ ...short, noticeKind: "error" }).color).toBe("warn");
    const long = { ...live, notice: "The demo organization lives in memory and is gone at exit; to keep one, run termchat server --zuliprc-dir DIR", width: 60 };
    expect(statusLayout({ ...long, noticeKind: "info" })).toMatchObject({ aboveColor: "accent", left: "● connected" });
    expect(statusLayout({ ...long, noticeKind: "error" }).aboveColor).toBe("warn");
    // Without a kind, a notice is a warning (the safer reading).
    expect(statusLayout(long).aboveColor).toBe("warn");
  });
});
