import { beforeEach, describe, expect, it } from "vitest";
import { buildSidebarRows, moveCursor } from "../../src/ui/sidebar-rows.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());

describe("sidebar rows", () => {
  const reg = {
    unread_msgs: {
      count: 3,
      pms: [{ other_user_id: 2, unread_message_ids: [40] }],
      streams: [
        { stream_id: 10, topic: "lunch", unread_message_ids: [20, 21] },
        { stream_id: 10, topic: "", unread_message_ids: [25] },
      ],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    },
    recent_private_conversations: [{ max_message_id: 40, user_ids: [2] }],
  };

  it("lists the views, channels with counts and DM conversations", () => {
    const rows = buildSidebarRows(eg.store(reg), undefined);
    const views = rows.filter((r) => r.kind === "view").map((r) => (r.kind === "view" ? [r.label, r.unread] : []));
    expect(views.slice(0, 3)).toEqual([
      ["Inbox", 4],
      ["Combined feed", 4],
      ["Direct messages", 1],
    ]);
    const rest = rows.filter((r) => r.kind !== "view");
    expect(rest.map((r) => r.kind)).toEqual(["folder", "channel", "channel", "header", "dm"]);
    expect(rest[1]).toMatchObject({ name: "design", unread: 0 });
    expect(rest[2]).toMatchObject({ name: "general", unread: 3 });
    expect(rest[4]).toMatchObject({ label: "Other Person", unread: 1 });
  });

  it("keeps only matching channels, topics and conversations while filtering", () => {
    const rows = buildSidebarRows(eg.store(reg), { filter: "LUN" });
    expect(rows.filter((r) => r.kind === "view")).toHaveLength(0);
    expect(rows.map((r) => (r.kind === "channel" ? r.name : r.kind === "topic" ? r.label : r.kind))).toEqual(["folder", "general", "lunch"]);
  });

  it("collapses a folder section", () => {
    const rows = buildSidebarRows(eg.store(reg), { collapsedFolders: [-2] });
    expect(rows.some((r) => r.kind === "channel")).toBe(false);
    expect(rows.find((r) => r.kind === "folder")).toMatchObject({ collapsed: true });
  });

  it("expands a channel into its topics, newest first, showing the empty topic by its display name", () => {
    const rows = buildSidebarRows(eg.store(reg), 10);
    const topics = rows.filter((r) => r.kind === "topic");
    expect(topics.map((t) => (t.kind === "topic" ? [t.label, t.unread] : []))).toEqual([
      ["general chat", 1],
      ["lunch", 2],
    ]);
  });

  it("moves the cursor over headers and stops at the ends", () => {
    const rows = buildSidebarRows(eg.store(reg), undefined);
    const header = rows.findIndex((r) => r.kind === "header");
    expect(moveCursor(rows, header - 1, 1)).toBe(header + 1);
    expect(moveCursor(rows, header + 1, -1)).toBe(header - 1);
    expect(moveCursor(rows, rows.length - 1, 1)).toBe(rows.length - 1);
    expect(moveCursor(rows, 0, -1)).toBe(0);
  });
});
