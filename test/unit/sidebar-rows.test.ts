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

  it("lists the combined feed, channels with counts and DM conversations", () => {
    const rows = buildSidebarRows(eg.store(reg), undefined);
    expect(rows.map((r) => r.kind)).toEqual(["view", "header", "channel", "channel", "header", "dm"]);
    expect(rows[0]).toMatchObject({ label: "Combined feed", unread: 4 });
    expect(rows[2]).toMatchObject({ name: "design", unread: 0 });
    expect(rows[3]).toMatchObject({ name: "general", unread: 3 });
    expect(rows[5]).toMatchObject({ label: "Other Person", unread: 1 });
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
    expect(moveCursor(rows, 0, 1)).toBe(2);
    expect(moveCursor(rows, 3, 1)).toBe(5);
    expect(moveCursor(rows, 5, 1)).toBe(5);
    expect(moveCursor(rows, 2, -1)).toBe(0);
  });
});
