/**
 * An answer parsed while it arrives gives what JSON.parse of the whole gives, however its bytes
 * are cut into chunks, fails where JSON.parse fails, and never keeps the whole of a long array's
 * bytes.
 */
import { describe, expect, it } from "vitest";
import { ARRAY_RUN_BYTES, JsonInParts } from "../../src/api/json-stream.js";

/** A pseudo-random sequence, the same on every run. */
function sequence(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** The bytes of `text` fed in chunks whose sizes `size` picks; the parser's result. */
function fed(text: string | Buffer, size: () => number, forms: Record<string, (e: unknown) => unknown> = {}): unknown {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8");
  const parts = new JsonInParts(forms);
  for (let at = 0; at < bytes.length; ) {
    const n = Math.max(1, Math.min(bytes.length - at, size()));
    // A copy, as a stream hands over chunks of its own.
    parts.add(Buffer.from(bytes.subarray(at, at + n)));
    at += n;
  }
  return parts.result();
}

const users = Array.from({ length: 6000 }, (_, i) => ({
  user_id: i,
  full_name: i % 11 === 0 ? `a},{"b":"c"}],"x":[{ ${i}` : `Person ${i} — “quoted” \\ ☃ 日本 ${"x".repeat(i % 70)}`,
  profile: [{ a: i }, { b: [{ c: i }, { d: "},{" }] }],
}));

describe("JSON parsed as it arrives", () => {
  const texts = [
    `{"a":1,"b":"two","c":[1,2,{"d":null}],"e":{"f":[true,false]},"g":-1.5e3}`,
    ` \n{ "quote\\"d" : "back\\\\" , "slash\\\\\\"" :"x\\"y\\\\", "u":"\\u00e9t\\u00e9 ☃ 日本" , "n" : 12345 }\n `,
    `{"empty":{},"members":[],"s":"","n":0}`,
    `{}`,
    `[1,2,3]`,
    `"just a string"`,
    `{"k":"v","k":"last wins"}`,
    JSON.stringify({ result: "success", msg: "", members: users, tail: [1, 2] }),
    JSON.stringify({ members: users.slice(0, 2000), after: users.slice(0, 50) }, null, 2),
    JSON.stringify({ result: "success", members: Array.from({ length: 30000 }, (_, i) => `name ${i}`) }),
  ];

  it("gives what JSON.parse gives, in chunks of one byte, a few bytes, and thousands", () => {
    const small = sequence(1);
    const large = sequence(2);
    for (const t of texts) {
      const expected = JSON.parse(t);
      if (t.length < 5000) expect(fed(t, () => 1)).toEqual(expected);
      expect(fed(t, () => 1 + Math.floor(small() * 9))).toEqual(expected);
      expect(fed(t, () => 1 + Math.floor(large() * 40000))).toEqual(expected);
      expect(fed(t, () => t.length)).toEqual(expected);
    }
  });

  it("turns each element of the named arrays into its form, in order, and no other", () => {
    const text = JSON.stringify({ members: users, others: [{ user_id: 1 }] });
    const got = fed(text, sequence(3), { members: (e) => (e as { user_id: number }).user_id }) as { members: number[]; others: unknown[] };
    expect(got.members).toEqual(users.map((u) => u.user_id));
    expect(got.others).toEqual([{ user_id: 1 }]);
  });

  it("keeps only the bytes of the part not yet parsed, not the whole of a long array", () => {
    const text = Buffer.from(JSON.stringify({ result: "success", members: users.concat(users) }));
    expect(text.length).toBeGreaterThan(24 * ARRAY_RUN_BYTES);
    const parts = new JsonInParts({ members: (e) => e });
    let most = 0;
    for (let at = 0; at < text.length; at += 16384) {
      parts.add(Buffer.from(text.subarray(at, at + 16384)));
      most = Math.max(most, parts.keptBytes);
    }
    expect(most).toBeLessThan(8 * ARRAY_RUN_BYTES);
    expect((parts.result() as { members: unknown[] }).members).toHaveLength(2 * users.length);
  });

  it("a member named __proto__ is a member, as with JSON.parse", () => {
    const got = fed(`{"__proto__":{"polluted":true},"x":1}`, () => 3) as Record<string, unknown>;
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.keys(got)).toEqual(["__proto__", "x"]);
  });

  it("fails where JSON.parse fails, however the bytes come", () => {
    const broken = [
      `{"a":1 "b":2}`,
      `{"a":}`,
      `{"a":1}x`,
      `{"a":[1,2}`,
      `{"a":"open`,
      `{"a":tru}`,
      `{"a":1`,
      `{"members":[{"id":1},{"id":2}`,
      `  `,
      `<html>502</html>`,
      `{"members":[${Array.from({ length: 40000 }, (_, i) => `{"id":${i}}`).join(",")},{"id":}]}`,
      JSON.stringify({ members: users }).slice(0, -40),
    ];
    const size = sequence(4);
    for (const t of broken) {
      expect(() => JSON.parse(t)).toThrow(SyntaxError);
      expect(() => fed(t, () => 1 + Math.floor(size() * 3000), { members: (e) => e })).toThrow(SyntaxError);
      expect(() => fed(t, () => t.length)).toThrow(SyntaxError);
    }
  });

  it("an empty body is no JSON: undefined", () => {
    expect(new JsonInParts().result()).toBeUndefined();
  });
});
