/**
 * What a person types to jump to a date or time, read in their time zone:
 *
 *   2026-03-01   2026-03-01 14:00   today   yesterday 9am   monday   monday 14:00
 *   last friday   14:00 (today)   3 days ago   2 hours ago   march 1   1 march 2025 18:30
 *
 * A day without a time means its first minute. Week days and "march 1"
 * without a year mean the latest such day not after today ("last friday":
 * strictly before today). Calendar arithmetic is done on dates and each wall
 * time is turned into an instant in the zone, so days across a daylight
 * saving change are right: a time that does not exist (skipped by the clock
 * going forward) moves forward by the gap, and a time that happens twice
 * (the clock going back) is the first of the two.
 */
import { formatDateTime, parts } from "./time.js";

export interface DateInputOptions {
  /** "Now" in milliseconds. */
  now: number;
  /** IANA zone; default the system's. */
  timeZone?: string;
  /**
   * "past" (jumping to a date, the default): week days and month days without a year are the
   * latest such day, and a moment still to come is refused. "future" (sending or reminding
   * later): they are the next such day, a bare time is the next time the clock shows it, a day
   * without a time means 9:00 in the morning, "in 2 hours" is read, and a moment gone is refused.
   */
  direction?: "past" | "future";
}

export type DateInput =
  | { ok: true; /** The instant, ms. */ at: number; /** What it was read as, e.g. "Sun, Mar 1, 2026, 00:00". */ label: string }
  | { ok: false; error: string };

const DAY_MS = 86_400_000;
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const NUMBER_WORDS: Readonly<Record<string, number>> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const EXAMPLES = "2026-03-01, 2026-03-01 14:00, yesterday, monday 14:00, last friday, 14:00, 3 days ago or march 1";
const FUTURE_EXAMPLES = "tomorrow 9:00, monday 9:00, friday 14:30, 17:00, in 2 hours, in 30 minutes, december 1 or 2026-12-01 10:00";

const TIME = String.raw`(?:at )?(noon|midnight|\d{1,2}(?::\d{2}){0,2} ?(?:[ap]\.?m\.?)?)`;

interface Day {
  year: number;
  month: number;
  day: number;
}
interface Clock {
  hour: number;
  minute: number;
  second: number;
}

class InputError extends Error {}

function monthIndex(word: string): number {
  const i = MONTHS.findIndex((m) => word.length >= 3 && m.startsWith(word));
  if (i < 0) throw new InputError(`"${word}" is not a month.`);
  return i + 1;
}

function weekdayIndex(word: string): number | undefined {
  const i = WEEKDAYS.findIndex((w) => word.length >= 3 && w.startsWith(word));
  return i < 0 ? undefined : i;
}

function readClock(text: string): Clock {
  if (text === "noon") return { hour: 12, minute: 0, second: 0 };
  if (text === "midnight") return { hour: 0, minute: 0, second: 0 };
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))? ?([ap])?/.exec(text);
  if (!m) throw new InputError(`"${text}" is not a time of day.`);
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  const second = Number(m[3] ?? 0);
  const half = m[4];
  if (half === undefined && m[2] === undefined) throw new InputError(`"${text}" is not a time of day: write 14:00 or 2pm.`);
  if (half !== undefined) {
    if (hour < 1 || hour > 12) throw new InputError(`"${text}" is not a time of day.`);
    hour = (hour % 12) + (half === "p" ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) throw new InputError(`"${text}" is not a time of day.`);
  return { hour, minute, second };
}

function checkDay(d: Day, written: string): Day {
  const inMonth = new Date(Date.UTC(d.year, d.month, 0)).getUTCDate();
  if (d.month < 1 || d.month > 12) throw new InputError(`${written} is not a date: there is no month ${d.month}.`);
  if (d.day < 1 || d.day > inMonth) {
    const name = MONTHS[d.month - 1] as string;
    throw new InputError(`${written} is not a date: ${name[0]!.toUpperCase()}${name.slice(1)} ${d.year} has ${inMonth} days.`);
  }
  return d;
}

function dayFromNumber(n: number): Day {
  const d = new Date(n * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Months back from a day, keeping the day of the month where it exists (March 31 − 1 month = February 28). */
function monthsBack(d: Day, n: number): Day {
  const total = d.year * 12 + (d.month - 1) - n;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { year, month, day: Math.min(d.day, last) };
}

/**
 * The instant a wall time in a zone names. The zone's offset is looked up a
 * day before and a day after (one change at most in between); each offset
 * that gives the wall time back is a candidate; the earlier wins, and with
 * none (the time was skipped) the offset from before the change is used.
 */
export function wallTimeToInstant(d: Day, c: Clock, timeZone: string | undefined): number {
  const wall = Date.UTC(d.year, d.month - 1, d.day, c.hour, c.minute);
  const offsetAt = (t: number) => {
    const p = parts(t, timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(t / 60_000) * 60_000;
  };
  const wallAt = (t: number) => {
    const p = parts(t, timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  };
  const before = offsetAt(wall - DAY_MS);
  const after = offsetAt(wall + DAY_MS);
  const fits = [wall - before, wall - after].filter((t) => wallAt(t) === wall);
  const at = fits.length ? Math.min(...fits) : wall - before;
  return at + c.second * 1000;
}

const MIDNIGHT: Clock = { hour: 0, minute: 0, second: 0 };
const MORNING: Clock = { hour: 9, minute: 0, second: 0 };

/**
 * What reads differently ahead of now: "in N units", week days (the next such day, today while
 * its time is still to come; "next monday" never today), a bare time (today, else tomorrow) and
 * a month day without a year (the next one). Undefined: read as in the past direction.
 */
function readAhead(text: string, now: number, today: ReturnType<typeof parts>, at: (d: Day, clock?: string) => number): number | undefined {
  const todayNumber = today.dayNumber;
  let m: RegExpExecArray | null;
  if ((m = /^in (\d+|[a-z]+) (second|sec|minute|min|hour|hr|day|week)s?$/.exec(text))) {
    const n = /^\d+$/.test(m[1] as string) ? Number(m[1]) : NUMBER_WORDS[m[1] as string];
    if (n === undefined) throw new InputError(`"${m[1]}" is not a number.`);
    const unit = m[2] as string;
    if (unit === "day" || unit === "week") {
      // The same time of day, that many days on (by the calendar: a daylight saving change keeps the wall time).
      return at(dayFromNumber(todayNumber + n * (unit === "week" ? 7 : 1)), `${today.hour}:${String(today.minute).padStart(2, "0")}`);
    }
    const ms = unit.startsWith("s") ? 1000 : unit.startsWith("m") ? 60_000 : 3_600_000;
    return now + n * ms;
  }
  if (/ ago$/.test(text)) throw new InputError(`"${text}" has passed: choose a time ahead.`);
  if ((m = new RegExp(String.raw`^(next |this )?([a-z]+)(?: ${TIME})?$`).exec(text)) && weekdayIndex(m[2] as string) !== undefined) {
    let ahead = ((weekdayIndex(m[2] as string) as number) - today.weekday + 7) % 7;
    if (ahead === 0 && m[1] === "next ") ahead = 7;
    const day = at(dayFromNumber(todayNumber + ahead), m[3]);
    return day > now ? day : at(dayFromNumber(todayNumber + ahead + 7), m[3]);
  }
  if ((m = new RegExp(String.raw`^${TIME}$`).exec(text))) {
    const todayAt = at(dayFromNumber(todayNumber), m[1]);
    return todayAt > now ? todayAt : at(dayFromNumber(todayNumber + 1), m[1]);
  }
  // "december 1" or "1 december", no year: [month, day, time].
  const first = new RegExp(String.raw`^([a-z]{3,})\.? (\d{1,2})(?:st|nd|rd|th)?(?:,? ${TIME})?$`).exec(text);
  const second = first ? null : new RegExp(String.raw`^(\d{1,2})(?:st|nd|rd|th)? (?:of )?([a-z]{3,})\.?(?:,? ${TIME})?$`).exec(text);
  const monthDay = first ? [first[1], first[2], first[3]] : second ? [second[2], second[1], second[3]] : undefined;
  if (monthDay && weekdayIndex(monthDay[0] as string) === undefined) {
    const month = monthIndex(monthDay[0] as string);
    const day = Number(monthDay[1]);
    const year = dayFromNumber(todayNumber).year;
    const thisYear = at(checkDay({ year, month, day }, `${MONTHS[month - 1]} ${day}`), monthDay[2]);
    return thisYear > now ? thisYear : at(checkDay({ year: year + 1, month, day }, `${MONTHS[month - 1]} ${day} ${year + 1}`), monthDay[2]);
  }
  return undefined;
}

function read(text: string, o: DateInputOptions): number {
  const today = parts(o.now, o.timeZone);
  const todayDay: Day = { year: today.year, month: today.month, day: today.day };
  const future = o.direction === "future";
  const at = (d: Day, clock?: string) => wallTimeToInstant(d, clock ? readClock(clock) : future ? MORNING : MIDNIGHT, o.timeZone);
  let m: RegExpExecArray | null;
  if (future) {
    const ahead = readAhead(text, o.now, today, at);
    if (ahead !== undefined) return ahead;
  }

  if ((m = new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ t]${TIME})?$`).exec(text))) {
    return at(checkDay({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }, `${m[1]}-${m[2]}-${m[3]}`), m[4]);
  }
  if (/^\d{1,4}[/.]\d{1,2}[/.]\d{1,4}/.test(text)) {
    throw new InputError(`Write the date as year-month-day (2026-03-01): "${text}" could be read more than one way.`);
  }
  if (text === "now") return o.now;
  if ((m = new RegExp(String.raw`^(today|yesterday|tomorrow)(?: ${TIME})?$`).exec(text))) {
    const shift = m[1] === "today" ? 0 : m[1] === "yesterday" ? -1 : 1;
    return at(dayFromNumber(today.dayNumber + shift), m[2]);
  }
  if ((m = new RegExp(String.raw`^(last |this )?([a-z]+)(?: ${TIME})?$`).exec(text)) && weekdayIndex(m[2] as string) !== undefined) {
    const back = (today.weekday - (weekdayIndex(m[2] as string) as number) + 7) % 7;
    return at(dayFromNumber(today.dayNumber - (back === 0 && m[1] === "last " ? 7 : back)), m[3]);
  }
  if ((m = new RegExp(String.raw`^${TIME}$`).exec(text))) return at(todayDay, m[1]);
  if ((m = /^(\d+|[a-z]+) (minute|min|hour|hr|day|week|month|year)s? ago$/.exec(text))) {
    const n = /^\d+$/.test(m[1] as string) ? Number(m[1]) : NUMBER_WORDS[m[1] as string];
    if (n === undefined) throw new InputError(`"${m[1]}" is not a number.`);
    switch (m[2]) {
      case "minute":
      case "min":
        return o.now - n * 60_000;
      case "hour":
      case "hr":
        return o.now - n * 3_600_000;
      case "day":
        return at(dayFromNumber(today.dayNumber - n));
      case "week":
        return at(dayFromNumber(today.dayNumber - 7 * n));
      case "month":
        return at(monthsBack(todayDay, n));
      default:
        return at(monthsBack(todayDay, 12 * n));
    }
  }
  const monthDay =
    new RegExp(String.raw`^([a-z]{3,})\.? (\d{1,2})(?:st|nd|rd|th)?(?:,? (\d{4}))?(?:,? ${TIME})?$`).exec(text) ??
    swapDayMonth(new RegExp(String.raw`^(\d{1,2})(?:st|nd|rd|th)? (?:of )?([a-z]{3,})\.?(?:,? (\d{4}))?(?:,? ${TIME})?$`).exec(text));
  if (monthDay) {
    const month = monthIndex(monthDay[1] as string);
    const day = Number(monthDay[2]);
    let year = monthDay[3] !== undefined ? Number(monthDay[3]) : today.year;
    // No year: the latest such day not after today.
    if (monthDay[3] === undefined && (month > today.month || (month === today.month && day > today.day))) year--;
    return at(checkDay({ year, month, day }, `${MONTHS[month - 1]} ${day}${monthDay[3] ? ` ${year}` : ""}`), monthDay[4]);
  }
  throw new InputError(`Could not read "${text}" as a date or time. Try ${EXAMPLES}.`);
}

function swapDayMonth(m: RegExpExecArray | null): string[] | null {
  return m ? [m[0], m[2] as string, m[1] as string, m[3] as string, m[4] as string] : null;
}

/** Reads a typed date or time; an error says what was wrong in a sentence. */
export function parseDateInput(input: string, o: DateInputOptions): DateInput {
  const text = input.trim().toLowerCase().replace(/\s+/g, " ");
  const future = o.direction === "future";
  if (text === "") return { ok: false, error: `Type a date or time: ${future ? FUTURE_EXAMPLES : EXAMPLES}.` };
  try {
    const at = read(text, o);
    const label = formatDateTime(Math.floor(at / 1000), { timeZone: o.timeZone });
    if (!future && at > o.now) return { ok: false, error: `${label} is still to come: jump to a time in the past.` };
    if (future && at <= o.now) return { ok: false, error: `${label} has passed: choose a time ahead.` };
    return { ok: true, at, label };
  } catch (e) {
    if (e instanceof InputError) return { ok: false, error: future ? e.message.replace(EXAMPLES, FUTURE_EXAMPLES) : e.message };
    throw e;
  }
}
