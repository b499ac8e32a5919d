import { describe, expect, it } from "vitest";
import {
  beginRecentFetch, loadMoreRecent, nextRecentFetch, RECENT_BATCHES, recentFetchDone, recentFetchFailed, recentLoadState, resetRecentLoad, rowsWithinLoaded,
} from "../../src/model/recent-loading.js";

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ id: from + i }));

describe("the recent view's loading plan", () => {
  it("first asks for the newest messages of everything, then older batches while the view needs rows", () => {
    const s = recentLoadState();
    expect(nextRecentFetch(s, { wanted: 40, complete: 0 })).toEqual({ anchor: "newest", include_anchor: true, num_before: RECENT_BATCHES.first, num_after: 0, narrow: [] });
    const g = beginRecentFetch(s);
    expect(nextRecentFetch(s, { wanted: 40, complete: 0 })).toBeUndefined(); // one request at a time
    recentFetchDone(s, g, { messages: ids(9001, 10000), found_oldest: false });
    expect(s).toMatchObject({ oldestId: 9001, loaded: 1000, inFlight: false });
    expect(nextRecentFetch(s, { wanted: 40, complete: 40 })).toBeUndefined(); // the view has enough
    expect(nextRecentFetch(s, { wanted: 80, complete: 52 })).toEqual({ anchor: 9001, include_anchor: false, num_before: RECENT_BATCHES.more, num_after: 0, narrow: [] });
  });

  it("stops at the oldest message, and when an empty organization answers nothing", () => {
    const s = recentLoadState();
    recentFetchDone(s, beginRecentFetch(s), { messages: ids(1, 10), found_oldest: true });
    expect(nextRecentFetch(s, { wanted: 100, complete: 3 })).toBeUndefined();
    const empty = recentLoadState();
    recentFetchDone(empty, beginRecentFetch(empty), { messages: [], found_oldest: false });
    expect(nextRecentFetch(empty, { wanted: 100, complete: 0 })).toBeUndefined();
  });

  it("spends a budget of messages, then waits until the user asks for more", () => {
    const s = recentLoadState();
    let top = 1_000_000;
    while (nextRecentFetch(s, { wanted: 1000, complete: 10 })) {
      const g = beginRecentFetch(s);
      recentFetchDone(s, g, { messages: ids(top - 1999, top), found_oldest: false });
      top -= 2000;
    }
    expect(s.loaded).toBeGreaterThanOrEqual(RECENT_BATCHES.budget);
    expect(s.loaded).toBeLessThan(RECENT_BATCHES.budget + RECENT_BATCHES.more);
    loadMoreRecent(s);
    expect(nextRecentFetch(s, { wanted: 1000, complete: 10 })).toMatchObject({ anchor: top + 1 });
  });

  it("drops answers to requests made before a reset, and waits after an error until asked", () => {
    const s = recentLoadState();
    const stale = beginRecentFetch(s);
    resetRecentLoad(s);
    expect(recentFetchDone(s, stale, { messages: ids(1, 5), found_oldest: true })).toBe(false);
    expect(s.loaded).toBe(0);
    const g = beginRecentFetch(s);
    recentFetchFailed(s, g, "Network unreachable");
    expect(s.error).toBe("Network unreachable");
    expect(nextRecentFetch(s, { wanted: 10, complete: 0 })).toBeUndefined();
    loadMoreRecent(s);
    expect(nextRecentFetch(s, { wanted: 10, complete: 0 })).toMatchObject({ anchor: "newest" });
  });

  it("counts the rows the loaded range vouches for", () => {
    const s = recentLoadState();
    expect(rowsWithinLoaded(s, [{ maxId: 5 }])).toBe(0);
    recentFetchDone(s, beginRecentFetch(s), { messages: ids(100, 200), found_oldest: false });
    expect(rowsWithinLoaded(s, [{ maxId: 300 }, { maxId: 100 }, { maxId: 99 }])).toBe(2);
    s.foundOldest = true;
    expect(rowsWithinLoaded(s, [{ maxId: 300 }, { maxId: 1 }])).toBe(2);
  });
});
