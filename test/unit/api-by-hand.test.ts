/**
 * The register's fields checked by hand read as their schemas read them, and what the hand
 * check refuses goes through the schema: read when only its leniency takes it, refused with the
 * schema's path otherwise. Also the id lists checked by hand, kept as they came.
 */
import { describe, expect, it } from "vitest";
import { recentDmSchema, registerResponseSchema } from "../../src/api/schemas/register.js";
import { recentDmsByHand } from "../../src/api/schemas/by-hand.js";
import { userGroupSchema } from "../../src/api/schemas/common.js";
import * as z from "zod";

const register = (fields: Record<string, unknown>) => registerResponseSchema.safeParse({ result: "success", msg: "", queue_id: "q", last_event_id: -1, ...fields });

describe("the register's recent direct-message conversations", () => {
  const lists: unknown[] = [[], [{ max_message_id: 40, user_ids: [2] }, { max_message_id: 12, user_ids: [], newer_field: "kept" }]];

  it("are read as their schema reads them", () => {
    for (const l of lists) {
      expect(recentDmsByHand(l)).toEqual(z.array(recentDmSchema).parse(l));
      expect(register({ recent_private_conversations: l }).data?.recent_private_conversations).toEqual(z.array(recentDmSchema).parse(l));
    }
  });

  it("are an empty list when absent or null", () => {
    expect(register({}).data?.recent_private_conversations).toEqual([]);
    expect(register({ recent_private_conversations: null }).data?.recent_private_conversations).toEqual([]);
  });

  it("are refused where their schema refuses them, at its path", () => {
    const bad: Array<{ list: unknown; path: Array<string | number> }> = [
      { list: "all", path: [] },
      { list: [{ max_message_id: "40", user_ids: [2] }], path: [0, "max_message_id"] },
      { list: [{ max_message_id: 40, user_ids: [2.5] }], path: [0, "user_ids"] },
      { list: [{ max_message_id: 40 }], path: [0, "user_ids"] },
      { list: [null], path: [0] },
    ];
    for (const { list, path } of bad) {
      expect(() => recentDmsByHand(list)).toThrow(TypeError);
      const r = register({ recent_private_conversations: list });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(["recent_private_conversations", ...path]);
    }
  });
});

describe("id lists checked by hand", () => {
  it("keep the list as it came, and refuse one with anything but safe integers", () => {
    const members = [1, 2, 3];
    const group = userGroupSchema.parse({ id: 9, name: "everyone", members });
    expect(group.members).toBe(members);
    for (const bad of [[1, "2"], [1.5], [2 ** 60], "1,2", [null]]) {
      const r = userGroupSchema.safeParse({ id: 9, name: "everyone", members: bad });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(["members"]);
      expect(r.error?.issues[0]?.message).toBe("expected a list of integer ids");
    }
    expect(userGroupSchema.parse({ id: 9, name: "nobody" }).members).toEqual([]);
  });
});
