import { describe, expect, it } from "vitest";
import { dmParticipants } from "../../src/model/narrow.js";

describe("a conversation's participants", () => {
  it("are everyone but me, each once, in numeric order", () => {
    expect(dmParticipants([10, 7, 9, 7, 100, 10], 7)).toEqual([9, 10, 100]);
    expect(dmParticipants([3, 2, 3, 2, 1], 5)).toEqual([1, 2, 3]);
  });

  it("are just me in notes to self, however I am listed", () => {
    expect(dmParticipants([7], 7)).toEqual([7]);
    expect(dmParticipants([7, 7], 7)).toEqual([7]);
    expect(dmParticipants([], 7)).toEqual([7]);
  });

  it("come the same from any iterable, and leave the list given unchanged", () => {
    const given = [4, 2, 7, 2];
    expect(dmParticipants(new Set(given), 7)).toEqual([2, 4]);
    expect(dmParticipants(given, 7)).toEqual([2, 4]);
    expect(given).toEqual([4, 2, 7, 2]);
  });
});
