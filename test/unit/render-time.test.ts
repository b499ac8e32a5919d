import { describe, expect, it } from "vitest";
import { formatDateTime, formatDay, formatTime, isSameDay } from "../../src/render/time.js";

const at = (iso: string): number => Date.parse(iso) / 1000;
const tz = "Europe/Berlin"; // UTC+1 in November, UTC+2 in summer
const now = at("2026-11-20T15:00:00Z"); // Friday, 16:00 in Berlin

describe("formatTime", () => {
  it("today: the clock time in the zone", () => {
    expect(formatTime(at("2026-11-20T13:05:00Z"), { timeZone: tz, now })).toBe("14:05");
    expect(formatTime(at("2026-11-20T13:05:00Z"), { timeZone: tz, now, twentyFourHour: false })).toBe("2:05 PM");
    expect(formatTime(at("2026-11-19T23:30:00Z"), { timeZone: tz, now, twentyFourHour: false })).toBe("12:30 AM");
  });

  it("the day boundary is the zone's, not UTC's", () => {
    // 23:30 UTC on the 19th is already the 20th in Berlin
    expect(formatTime(at("2026-11-19T23:30:00Z"), { timeZone: tz, now })).toBe("00:30");
    expect(formatTime(at("2026-11-19T22:30:00Z"), { timeZone: tz, now })).toBe("Nov 19 23:30");
  });

  it("this year: month, day and time; another year: the date", () => {
    expect(formatTime(at("2026-03-02T08:00:00Z"), { timeZone: tz, now })).toBe("Mar 2 09:00");
    expect(formatTime(at("2024-11-20T10:00:00Z"), { timeZone: tz, now })).toBe("2024-11-20");
  });

  it("accepts now as a Date or in milliseconds", () => {
    const ts = at("2026-11-20T13:05:00Z");
    expect(formatTime(ts, { timeZone: tz, now: new Date(now * 1000) })).toBe("14:05");
    expect(formatTime(ts, { timeZone: tz, now: now * 1000 })).toBe("14:05");
  });

  it("an unknown zone falls back to the system zone instead of throwing", () => {
    expect(() => formatTime(now, { timeZone: "Not/AZone", now })).not.toThrow();
  });
});

describe("formatDay", () => {
  it("Today, Yesterday, weekday and date", () => {
    expect(formatDay(at("2026-11-20T06:00:00Z"), { timeZone: tz, now })).toBe("Today");
    expect(formatDay(at("2026-11-19T12:00:00Z"), { timeZone: tz, now })).toBe("Yesterday");
    expect(formatDay(at("2026-11-13T12:00:00Z"), { timeZone: tz, now })).toBe("Friday, November 13");
    expect(formatDay(at("2024-11-20T12:00:00Z"), { timeZone: tz, now })).toBe("Wednesday, November 20, 2024");
  });

  it("Yesterday across a daylight-saving change (a 25-hour day)", () => {
    const afterDst = at("2026-10-26T10:00:00Z"); // Monday; Sunday the 25th had 25 hours in Berlin
    expect(formatDay(at("2026-10-25T00:30:00Z"), { timeZone: tz, now: afterDst })).toBe("Yesterday");
    expect(formatDay(at("2026-10-24T21:30:00Z"), { timeZone: tz, now: afterDst })).toBe("Saturday, October 24");
  });

  it("isSameDay uses the zone", () => {
    expect(isSameDay(at("2026-11-19T23:30:00Z"), at("2026-11-20T10:00:00Z"), tz)).toBe(true);
    expect(isSameDay(at("2026-11-19T23:30:00Z"), at("2026-11-20T10:00:00Z"), "UTC")).toBe(false);
  });
});

describe("formatDateTime", () => {
  it("weekday, date and time in the zone", () => {
    expect(formatDateTime(at("2026-11-20T10:00:00Z"), { timeZone: tz })).toBe("Fri, Nov 20, 2026, 11:00");
    expect(formatDateTime(at("2026-11-20T10:00:00Z"), { timeZone: "UTC", twentyFourHour: false })).toBe(
      "Fri, Nov 20, 2026, 10:00 AM",
    );
  });
});

describe("the system zone (no timeZone given)", () => {
  const saved = process.env.TZ;
  const inSystemZone = (zone: string, run: () => void) => {
    process.env.TZ = zone; // Node re-reads the zone when TZ changes
    try {
      run();
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  };

  it("formats as the same zone named explicitly would", () => {
    for (const zone of ["Europe/Berlin", "Asia/Kolkata", "America/St_Johns", "UTC"]) {
      inSystemZone(zone, () => {
        for (const iso of ["2026-11-19T23:30:00Z", "2026-11-20T13:05:00Z", "2026-03-02T08:00:00Z", "2026-10-24T21:30:00Z", "2024-11-20T10:00:00Z"]) {
          const ts = at(iso);
          expect(formatTime(ts, { now })).toBe(formatTime(ts, { timeZone: zone, now }));
          expect(formatTime(ts, { now, twentyFourHour: false })).toBe(formatTime(ts, { timeZone: zone, now, twentyFourHour: false }));
          expect(formatDay(ts, { now })).toBe(formatDay(ts, { timeZone: zone, now }));
          expect(formatDateTime(ts)).toBe(formatDateTime(ts, { timeZone: zone }));
          expect(isSameDay(ts, now)).toBe(isSameDay(ts, now, zone));
        }
      });
    }
  });

  it("the day boundary and daylight saving are the system zone's", () => {
    inSystemZone("Europe/Berlin", () => {
      expect(formatTime(at("2026-11-19T23:30:00Z"), { now })).toBe("00:30");
      expect(formatDay(at("2026-10-25T00:30:00Z"), { now: at("2026-10-26T10:00:00Z") })).toBe("Yesterday");
    });
  });
});
