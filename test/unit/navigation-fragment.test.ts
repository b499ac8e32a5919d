import { describe, expect, it } from "vitest";
import { fragmentNarrow, narrowFragment } from "../../src/model/navigation-views.js";
import type { Narrow } from "../../src/model/narrow.js";
import * as eg from "../fixtures/example.js";

describe("a narrow as a navigation view's fragment, and back", () => {
  const store = eg.store({ subscriptions: [eg.subscription({ stream_id: 5, name: "team news" })] });
  const cases: Array<[Narrow, string]> = [
    [{ kind: "channel", channelId: 5 }, "narrow/channel/5-team-news"],
    [{ kind: "topic", channelId: 5, topic: "v2.0 (beta)" }, "narrow/channel/5-team-news/topic/v2.2E0.20.28beta.29"],
    [{ kind: "dm", userIds: [eg.otherUser.user_id] }, `narrow/dm/${[eg.selfUser.user_id, eg.otherUser.user_id].sort((a, b) => a - b).join(",")}-dm`],
    [{ kind: "starred" }, "narrow/is/starred"],
    [{ kind: "mentioned" }, "narrow/is/mentioned"],
    [{ kind: "all-dms" }, "narrow/is/dm"],
  ];
  it.each(cases)("%j is written as the web app writes it and read back as the same narrow", (narrow, fragment) => {
    expect(narrowFragment(store, narrow)).toBe(fragment);
    expect(fragmentNarrow(fragment, store.selfId)).toEqual(narrow);
  });

  it("a search keeps its operators, negation included", () => {
    const n: Narrow = { kind: "search", query: "has:link -is:resolved", terms: [{ operator: "has", operand: "link" }, { operator: "is", operand: "resolved", negated: true }] };
    const f = narrowFragment(store, n);
    expect(f).toBe("narrow/has/link/-is/resolved");
    expect(fragmentNarrow(f, store.selfId)).toMatchObject({ kind: "search", terms: n.terms });
  });
});
