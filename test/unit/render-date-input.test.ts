import { describe, expect, it } from "vitest";
import { parseDateInput, type DateInputOptions } from "../../src/render/date-input.js";

/** Wednesday 4 March 2026, 10:30 in Berlin (UTC+1). */
const berlin: DateInputOptions = { now: Date.parse("2026-03-04T09:30:00Z"), timeZone: "Europe/Berlin" };

function at(input: string, o: DateInputOptions = berlin): string {
  const r = parseDateInput(input, o);
  if (!r.ok) throw new Error(r.error);
  return new Date(r.at).toISOString();
}

function error(input: string, o: DateInputOptions = berlin): string {
  const r = parseDateInput(input, o);
  if (r.ok) throw new Error(`read ${input} as ${new Date(r.at).toISOString()}`);
  return r.error;
}

describe("reading a typed date in the local zone", () => {
  it("ISO dates and date-times, a day meaning its first minute", () => {
    expect(at("2026-03-01")).toBe("2026-02-28T23:00:00.000Z");
    expect(at("2026-03-01 14:00")).toBe("2026-03-01T13:00:00.000Z");
    expect(at("2026-03-01T14:00:30")).toBe("2026-03-01T13:00:30.000Z");
    expect(at("2025-7-4 9am")).toBe("2025-07-04T07:00:00.000Z"); // summer time
  });

  it("today, yesterday, a bare time (today), now", () => {
    expect(at("today")).toBe("2026-03-03T23:00:00.000Z");
    expect(at("Yesterday")).toBe("2026-03-02T23:00:00.000Z");
    expect(at("yesterday at 9:15 pm")).toBe("2026-03-03T20:15:00.000Z");
    expect(at("08:00")).toBe("2026-03-04T07:00:00.000Z");
    expect(at("at noon", { ...berlin, now: Date.parse("2026-03-04T15:00:00Z") })).toBe("2026-03-04T11:00:00.000Z");
    expect(at("now")).toBe("2026-03-04T09:30:00.000Z");
  });

  it("week days: the latest one not after today; 'last' the one before today", () => {
    expect(at("monday")).toBe("2026-03-01T23:00:00.000Z");
    expect(at("mon 14:00")).toBe("2026-03-02T13:00:00.000Z");
    expect(at("wednesday")).toBe("2026-03-03T23:00:00.000Z"); // today
    expect(at("last wednesday")).toBe("2026-02-24T23:00:00.000Z");
    expect(at("last friday")).toBe("2026-02-26T23:00:00.000Z");
    expect(at("thursday")).toBe("2026-02-25T23:00:00.000Z");
  });

  it("so long ago: days and weeks by the calendar, hours and minutes by the clock, months keeping the day", () => {
    expect(at("3 days ago")).toBe("2026-02-28T23:00:00.000Z");
    expect(at("a week ago")).toBe("2026-02-24T23:00:00.000Z");
    expect(at("2 hours ago")).toBe("2026-03-04T07:30:00.000Z");
    expect(at("90 minutes ago")).toBe("2026-03-04T08:00:00.000Z");
    expect(at("1 month ago", { ...berlin, now: Date.parse("2026-03-31T10:00:00Z") })).toBe("2026-02-27T23:00:00.000Z");
  });

  it("month and day, the latest such day when the year is left out", () => {
    expect(at("march 1")).toBe("2026-02-28T23:00:00.000Z");
    expect(at("Mar 3rd 18:30")).toBe("2026-03-03T17:30:00.000Z");
    expect(at("december 24")).toBe("2025-12-23T23:00:00.000Z"); // not yet this year
    expect(at("1 march 2025")).toBe("2025-02-28T23:00:00.000Z");
    expect(at("july 4, 2025, 9am")).toBe("2025-07-04T07:00:00.000Z");
  });

  it("across the spring change: a skipped time moves forward by the gap; days keep their midnight", () => {
    const after: DateInputOptions = { now: Date.parse("2026-03-30T10:00:00Z"), timeZone: "Europe/Berlin" };
    expect(at("2026-03-29 02:30", after)).toBe("2026-03-29T01:30:00.000Z"); // 03:30 summer time
    expect(at("2026-03-29", after)).toBe("2026-03-28T23:00:00.000Z");
    expect(at("today", after)).toBe("2026-03-29T22:00:00.000Z");
    expect(at("yesterday", after)).toBe("2026-03-28T23:00:00.000Z");
    expect(at("2 days ago", after)).toBe("2026-03-27T23:00:00.000Z");
    expect(at("24 hours ago", after)).toBe("2026-03-29T10:00:00.000Z");
  });

  it("across the autumn change: a time that happens twice is the first of the two", () => {
    const after: DateInputOptions = { now: Date.parse("2026-10-26T10:00:00Z"), timeZone: "Europe/Berlin" };
    expect(at("2026-10-25 02:30", after)).toBe("2026-10-25T00:30:00.000Z");
    expect(at("2026-10-25 03:30", after)).toBe("2026-10-25T02:30:00.000Z");
    expect(at("sunday", after)).toBe("2026-10-24T22:00:00.000Z");
    expect(at("today", after)).toBe("2026-10-25T23:00:00.000Z");
  });

  it("a zone whose clocks skip midnight: the day starts at the first minute it has", () => {
    const santiago: DateInputOptions = { now: Date.parse("2026-09-10T12:00:00Z"), timeZone: "America/Santiago" };
    expect(at("2026-09-06", santiago)).toBe("2026-09-06T04:00:00.000Z"); // 01:00, UTC−3
    expect(at("2026-09-05", santiago)).toBe("2026-09-05T04:00:00.000Z"); // 00:00, UTC−4
  });

  it("says what is wrong, in a sentence", () => {
    expect(error("")).toMatch(/^Type a date or time: 2026-03-01/);
    expect(error("next blue moon")).toBe('Could not read "next blue moon" as a date or time. Try 2026-03-01, 2026-03-01 14:00, yesterday, monday 14:00, last friday, 14:00, 3 days ago or march 1.');
    expect(error("2026-02-30")).toBe("2026-02-30 is not a date: February 2026 has 28 days.");
    expect(error("2026-13-01")).toBe("2026-13-01 is not a date: there is no month 13.");
    expect(error("25:00")).toBe('"25:00" is not a time of day.');
    expect(error("monday 14")).toBe('"14" is not a time of day: write 14:00 or 2pm.');
    expect(error("03/01/2026")).toMatch(/^Write the date as year-month-day \(2026-03-01\)/);
    expect(error("tomorrow")).toBe("Thu, Mar 5, 2026, 00:00 is still to come: jump to a time in the past.");
    expect(error("15:00")).toMatch(/is still to come/);
    expect(error("febtember 3")).toBe('"febtember" is not a month.');
  });

  it("tells what it read, in the zone", () => {
    expect(parseDateInput("monday 14:00", berlin)).toMatchObject({ ok: true, label: "Mon, Mar 2, 2026, 14:00" });
  });
});

describe("reading a time ahead (send later, reminders)", () => {
  const ahead: DateInputOptions = { ...berlin, direction: "future" };
  it("a day without a time is 9:00; week days and bare times are the next ones", () => {
    expect(at("tomorrow", ahead)).toBe("2026-03-05T08:00:00.000Z");
    expect(at("tomorrow 9:00", ahead)).toBe("2026-03-05T08:00:00.000Z");
    expect(at("monday 9:00", ahead)).toBe("2026-03-09T08:00:00.000Z");
    expect(at("wednesday 14:00", ahead)).toBe("2026-03-04T13:00:00.000Z"); // today, still to come
    expect(at("wednesday 9:00", ahead)).toBe("2026-03-11T08:00:00.000Z"); // today's has passed
    expect(at("next wednesday 14:00", ahead)).toBe("2026-03-11T13:00:00.000Z");
    expect(at("17:00", ahead)).toBe("2026-03-04T16:00:00.000Z");
    expect(at("8am", ahead)).toBe("2026-03-05T07:00:00.000Z");
  });

  it("in so many seconds, minutes, hours and days; month days the next such day", () => {
    expect(at("in 2 seconds", ahead)).toBe("2026-03-04T09:30:02.000Z");
    expect(at("in 30 min", ahead)).toBe("2026-03-04T10:00:00.000Z");
    expect(at("in two hours", ahead)).toBe("2026-03-04T11:30:00.000Z");
    expect(at("in 1 week", ahead)).toBe("2026-03-11T09:30:00.000Z");
    expect(at("march 1", ahead)).toBe("2027-03-01T08:00:00.000Z");
    expect(at("1 december 14:00", ahead)).toBe("2026-12-01T13:00:00.000Z");
    expect(at("2026-03-29 10:00", ahead)).toBe("2026-03-29T08:00:00.000Z"); // summer time begun
  });

  it("a moment gone is refused in a sentence", () => {
    expect(error("yesterday", ahead)).toMatch(/has passed: choose a time ahead/);
    expect(error("3 days ago", ahead)).toMatch(/has passed/);
    expect(error("soon", ahead)).toMatch(/Try tomorrow 9:00/);
    expect(error("", ahead)).toMatch(/in 2 hours/);
  });
});
