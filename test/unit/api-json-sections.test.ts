/**
 * A large answer parsed in parts from its bytes gives what JSON.parse of the whole gives,
 * and fails where it fails.
 */
import { describe, expect, it } from "vitest";
import { DeferredArray, leadingScalars, parseDeferring, peekScalars } from "../../src/api/json-sections.js";
import { ARRAY_RUN_BYTES, parseJsonInParts } from "../../src/api/json-stream.js";
import { parseReply } from "../../src/api/body.js";

const parts = (text: string): unknown => parseJsonInParts(Buffer.from(text, "utf8"));

describe("JSON parsed in parts", () => {
  it("gives what JSON.parse gives: nesting, escapes, non-ASCII, spacing, scalars, empty members", () => {
    const texts = [
      `{"a":1,"b":"two","c":[1,2,{"d":null}],"e":{"f":[true,false]},"g":-1.5e3}`,
      ` \n{ "quote\\"d" : "back\\\\" , "slash\\\\\\"" :"x\\"y\\\\", "u":"\\u00e9t\\u00e9 ☃ 日本" }\n `,
      `{"empty":{},"none":[],"s":"","n":0}`,
      `{}`,
      `{"k":"v","k":"last wins"}`,
      `[1,2,3]`,
      `"just a string"`,
      `42`,
    ];
    for (const t of texts) expect(parts(t)).toEqual(JSON.parse(t));
  });

  it("a long array is read a run at a time, every element in order", () => {
    const users = Array.from({ length: 12000 }, (_, i) => ({ user_id: i, full_name: `Person ${i} — “quoted” \\ ${"x".repeat(i % 90)}`, tags: [i, { deep: [i] }] }));
    const text = JSON.stringify({ result: "success", realm_users: users, tail: [1, 2] });
    expect(text.length).toBeGreaterThan(2 * ARRAY_RUN_BYTES);
    expect(parts(text)).toEqual(JSON.parse(text));
    const spaced = JSON.stringify({ realm_users: users }, null, 2);
    expect(parts(spaced)).toEqual(JSON.parse(spaced));
  });

  it("a long array whose strings and nested objects look like element boundaries", () => {
    const tricky = Array.from({ length: 9000 }, (_, i) => ({
      id: i,
      text: i % 7 === 0 ? `a},{"b":"c"}],"x":[{` : `plain ${i}`,
      nested: [{ a: i }, { b: [{ c: i }, { d: "},{" }] }],
    }));
    const text = JSON.stringify({ first: tricky, mid: { k: [{ a: 1 }, { b: 2 }] }, second: tricky.slice(0, 3000), end: 1 });
    expect(parts(text)).toEqual(JSON.parse(text));
  });

  it("a member named __proto__ is a member, as with JSON.parse", () => {
    const got = parts(`{"__proto__":{"polluted":true},"x":1}`) as Record<string, unknown>;
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(got)).toEqual(["__proto__", "x"]);
  });

  it("fails where JSON.parse fails", () => {
    for (const t of [`{"a":1 "b":2}`, `{"a":}`, `{"a":1}x`, `{"a":[1,2}`, `{"a":"open`, `{"a":tru}`, ``, `<html>502</html>`]) {
      expect(() => JSON.parse(t)).toThrow(SyntaxError);
      expect(() => parts(t)).toThrow(SyntaxError);
    }
    const long = `{"realm_users":[${Array.from({ length: 40000 }, (_, i) => `{"id":${i}}`).join(",")},{"id":}]}`;
    expect(() => parts(long)).toThrow(SyntaxError);
  });

  it("an answer's body: empty is no JSON; bytes go through the given parser, text through JSON.parse", () => {
    expect(parseReply("")).toBeUndefined();
    expect(parseReply(Buffer.alloc(0), parseJsonInParts)).toBeUndefined();
    expect(parseReply(Buffer.from(`{"result":"error","msg":"é"}`), parseJsonInParts)).toEqual({ result: "error", msg: "é" });
    expect(parseReply(Buffer.from(`{"a":1}`))).toEqual({ a: 1 });
    expect(parseReply(`{"a":2}`)).toEqual({ a: 2 });
  });
});

describe("an array left in the answer's bytes", () => {
  const events = Array.from({ length: 5000 }, (_, i) => ({ type: "message", id: i, message: { content: i % 9 ? `text ${i}` : `a},{"b":"c"}]` } }));

  it("comes a run at a time, every element in order, after the members before it", () => {
    const text = JSON.stringify({ result: "success", msg: "", events, queue_id: "q" });
    const answer = parseDeferring(Buffer.from(text), "events") as { result: string; events: DeferredArray };
    expect(answer.result).toBe("success");
    expect(answer.events).toBeInstanceOf(DeferredArray);
    const runs = [...answer.events.runs()];
    expect(runs.length).toBeGreaterThan(3);
    expect(runs.flat()).toEqual(events);
  });

  it("only in a successful answer, and only an array: anything else is parsed whole", () => {
    for (const value of [{ result: "error", msg: "no", events: [1] }, { events: [1], result: "success" }, { result: "success", events: "none" }, { result: "success", msg: "" }]) {
      expect(parseDeferring(Buffer.from(JSON.stringify(value)), "events")).toEqual(value);
    }
  });

  it("a malformed array throws a SyntaxError where it breaks, after the runs before", () => {
    const text = JSON.stringify({ result: "success", events }).slice(0, -30);
    const answer = parseDeferring(Buffer.from(text), "events") as { events: DeferredArray };
    const seen: unknown[] = [];
    expect(() => {
      for (const run of answer.events.runs()) seen.push(...run);
    }).toThrow(SyntaxError);
    expect(seen.length).toBeGreaterThan(1000);
    expect(seen).toEqual(events.slice(0, seen.length));
  });
});

describe("a look at a few members before the parse", () => {
  const keys = ["queue_id", "last_event_id", "zulip_version"];

  it("finds scalar members wherever they are, as the parse would read them", () => {
    const answer = { result: "success", messages: [{ content: 'a "queue_id": "fake" \\"queue_id\\": 1' }], zulip_version: "11.0 \u00e9", queue_id: "q1", last_event_id: -1 };
    const bytes = Buffer.from(JSON.stringify(answer));
    expect(peekScalars(bytes, keys)).toEqual({ queue_id: "q1", last_event_id: -1, zulip_version: "11.0 \u00e9" });
  });

  it("leaves out a name found twice, one whose value is not a scalar, and one spaced from its colon", () => {
    const twice = Buffer.from(JSON.stringify({ realm: { queue_id: "nested" }, queue_id: "q1", last_event_id: 3 }));
    expect(peekScalars(twice, keys)).toEqual({ last_event_id: 3 });
    const nested = Buffer.from(JSON.stringify({ queue_id: { id: "x" }, last_event_id: [1] }));
    expect(peekScalars(nested, keys)).toEqual({});
    const spaced = Buffer.from('{"queue_id" : "q1", "last_event_id": 5}');
    expect(peekScalars(spaced, keys)).toEqual({ last_event_id: 5 });
  });

  it("a broken value is left to the parse", () => {
    expect(peekScalars(Buffer.from('{"queue_id":"unterminated'), keys)).toEqual({});
    expect(peekScalars(Buffer.from('{"last_event_id":12x}'), keys)).toEqual({});
  });
});

describe("the scalar members at the start of an answer still arriving", () => {
  const keys = ["queue_id", "last_event_id", "svc_feature_level"];
  const whole = JSON.stringify({ queue_id: "q\"1\u00e9", other: 5, last_event_id: 12345, svc_feature_level: 400, realm_users: [{ queue_id: "nested" }], tail: 1 });

  it("finds them from the bytes so far, each once whole, and says when more bytes could add to them", () => {
    const steps: string[] = [];
    for (let n = 0; n <= whole.length; n++) {
      const { found, more } = leadingScalars(Buffer.from(whole.slice(0, n)), keys);
      steps.push(`${Object.keys(found).join(",")}${more ? "" : " done"}`);
      // A number cut at the end of the bytes so far may go on: never taken short.
      if ("last_event_id" in found) expect(found.last_event_id).toBe(12345);
      if ("queue_id" in found) expect(found.queue_id).toBe('q"1\u00e9');
    }
    expect([...new Set(steps)]).toEqual(["", "queue_id", "queue_id,last_event_id", "queue_id,last_event_id,svc_feature_level", "queue_id,last_event_id,svc_feature_level done"]);
  });

  it("reads the top level only: after the first object or array nothing more is looked at", () => {
    const later = Buffer.from(JSON.stringify({ realm: { queue_id: "nested" }, queue_id: "q1", last_event_id: 3 }));
    expect(leadingScalars(later, keys)).toEqual({ found: {}, more: false });
    const spaced = Buffer.from(' \n{ "queue_id" : "q1" ,\t"last_event_id":-1 , "x": [] }');
    expect(leadingScalars(spaced, keys)).toEqual({ found: { queue_id: "q1", last_event_id: -1 }, more: false });
  });

  it("a name given twice counts as its last value, as in a parse; bytes that are not a JSON object stop the look", () => {
    expect(leadingScalars(Buffer.from('{"queue_id":"a","queue_id":"b","x":{}'), keys).found).toEqual({ queue_id: "b" });
    for (const bad of ["[1,2]", "<html>", '{"queue_id" "a"}', '{"queue_id":"a" "b"}', '{queue_id:1}', '{"last_event_id":12x,']) {
      expect(leadingScalars(Buffer.from(bad), keys).more, bad).toBe(false);
    }
    expect(leadingScalars(Buffer.from(""), keys)).toEqual({ found: {}, more: true });
  });
});
