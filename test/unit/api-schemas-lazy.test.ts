import { readdirSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { describe, expect, it } from "vitest";
import { prepareSchemas, prepareStartSchemas } from "../../src/api/schemas/prepare.js";

const dir = join(import.meta.dirname, "../../src/api/schemas");

/** The values a module exports that are schemas. */
function schemasOf(mod: Record<string, unknown>): Array<[string, z.ZodType]> {
  return Object.entries(mod).filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType);
}

describe("the API's schemas are made when first used", () => {
  // A start from the cache draws its first frame before any server answer is checked: making
  // the schemas there (some 150 of them) cost ~20 ms of that frame's time.
  it("every schema a schema module exports is a lazy one, and its first parse makes it", async () => {
    const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
    let count = 0;
    for (const file of files) {
      const mod = (await import(join(dir, file))) as Record<string, unknown>;
      for (const [name, schema] of schemasOf(mod)) {
        count++;
        expect(schema instanceof z.ZodLazy, `${file}: ${name}`).toBe(true);
      }
    }
    expect(count).toBeGreaterThan(60);
    const { userSchema } = await import("../../src/api/schemas/common.js");
    const user = userSchema.parse({ user_id: 7, email: "a@example.com", full_name: "Ada", timezone: null, unknown_field: 1 });
    expect(user).toMatchObject({ user_id: 7, full_name: "Ada", timezone: "", is_admin: false, unknown_field: 1 });
    expect(() => userSchema.parse({ user_id: "7", email: "a@example.com", full_name: "Ada" })).toThrow(/user_id/);
  });

  it("a start's schemas can be made ahead, through fields, lists, unions, pipes and defaults", () => {
    const made: string[] = [];
    const lazy = <T extends z.ZodType>(name: string, make: () => T) =>
      z.lazy(() => {
        made.push(name);
        return make();
      });
    const leaf = lazy("leaf", () => z.string());
    const root = lazy("root", () =>
      z.object({
        list: z.array(leaf),
        either: z.union([z.number(), lazy("in a union", () => z.boolean())]),
        piped: z.preprocess((v) => v, lazy("in a pipe", () => z.number())).default(0),
        again: leaf.optional(),
      }),
    );
    const unused = lazy("unused", () => z.null());
    expect(unused).toBeDefined();
    prepareSchemas([root]);
    expect(made.sort()).toEqual(["in a pipe", "in a union", "leaf", "root"]);
    // Made once: a parse afterwards makes none again.
    expect(root.parse({ list: ["a"], either: true })).toEqual({ list: ["a"], either: true, piped: 0 });
    expect(made).toHaveLength(4);
    expect(prepareStartSchemas()).toBeGreaterThan(500);
  });
});
