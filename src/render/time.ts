// Timestamps for message headers, day separators and `<time:…>` in messages.
//
// Output is built from Intl's numeric parts with our own English words, so it does not depend
// on the ICU version (newer ICU puts U+202F before "PM", for instance).

export interface TimeOptions {
  /** IANA zone, e.g. "Europe/Berlin". Default: the system zone. An unknown zone falls back to it. */
  timeZone?: string;
  /** 24-hour clock ("14:05") or 12-hour ("2:05 PM"). Default true. */
  twentyFourHour?: boolean;
  /** "Now", as a Date or as a number of seconds (a number above 1e11 is taken as milliseconds). Default: the current time. */
  now?: Date | number;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

export interface Parts {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number; // 0–23
  minute: number;
  /** Days since the epoch of this calendar date, for "today"/"yesterday" comparisons. */
  dayNumber: number;
  weekday: number; // 0 = Sunday
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? "";
  let f = formatters.get(key);
  if (f === undefined) {
    const opts: Intl.DateTimeFormatOptions = {
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    };
    try {
      f = new Intl.DateTimeFormat("en-US", { ...opts, timeZone });
    } catch {
      f = new Intl.DateTimeFormat("en-US", opts); // unknown zone: the system's
    }
    formatters.set(key, f);
  }
  return f;
}

/**
 * The system zone's parts come from Date's own local-time fields: an Intl.DateTimeFormat
 * would page in several MB of ICU's formatting code and data for the same numbers.
 */
function localParts(ms: number): Parts {
  const d = new Date(ms);
  const p = { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours(), minute: d.getMinutes() };
  const utc = Date.UTC(p.year, p.month - 1, p.day);
  return { ...p, dayNumber: Math.round(utc / 86_400_000), weekday: d.getDay() };
}

/**
 * Parts by zone and minute: a frame dates each message shown and asks for today's date for each
 * (the system zone's Date fields cost a time-zone lookup each). Every field is the same for the
 * whole minute, as zones are whole minutes from UTC. Bounded: a zone's are emptied when full.
 */
const byMinute = new Map<string, Map<number, Parts>>();
const MINUTES_KEPT = 4096;

/** The calendar date and wall-clock time of an instant in a zone (undefined: the system's). */
export function parts(ms: number, timeZone: string | undefined): Parts {
  const minute = Math.floor(ms / 60_000);
  // The system zone by its name too: Node follows a change of TZ.
  const key = timeZone ?? `system ${process.env.TZ ?? ""}`;
  let zone = byMinute.get(key);
  if (!zone) byMinute.set(key, (zone = new Map()));
  let p = zone.get(minute);
  if (!p) {
    if (zone.size >= MINUTES_KEPT) zone.clear();
    zone.set(minute, (p = Object.freeze(partsNow(ms, timeZone))));
  }
  return p;
}

function partsNow(ms: number, timeZone: string | undefined): Parts {
  if (timeZone === undefined) return localParts(ms);
  const p = { year: 1970, month: 1, day: 1, hour: 0, minute: 0 };
  for (const part of formatter(timeZone).formatToParts(ms)) {
    if (part.type in p) p[part.type as keyof typeof p] = Number(part.value);
  }
  if (p.hour === 24) p.hour = 0; // some ICU versions say 24 for midnight
  const utc = Date.UTC(p.year, p.month - 1, p.day);
  return { ...p, dayNumber: Math.round(utc / 86_400_000), weekday: new Date(utc).getUTCDay() };
}

function nowMs(now: Date | number | undefined): number {
  if (now === undefined) return Date.now();
  if (typeof now === "number") return now > 1e11 ? now : now * 1000;
  return now.getTime();
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

function clock(p: Parts, twentyFourHour: boolean): string {
  if (twentyFourHour) return `${pad2(p.hour)}:${pad2(p.minute)}`;
  const h = p.hour % 12 === 0 ? 12 : p.hour % 12;
  return `${h}:${pad2(p.minute)} ${p.hour < 12 ? "AM" : "PM"}`;
}

const monthShort = (p: Parts): string => (MONTHS[p.month - 1] ?? "").slice(0, 3);

/**
 * A message timestamp: today → "14:05"; earlier this year → "Nov 20 14:05";
 * another year → "2024-11-20".
 */
export function formatTime(tsSeconds: number, opts: TimeOptions = {}): string {
  const t = parts(tsSeconds * 1000, opts.timeZone);
  const n = parts(nowMs(opts.now), opts.timeZone);
  const time = clock(t, opts.twentyFourHour ?? true);
  if (t.dayNumber === n.dayNumber) return time;
  if (t.year === n.year) return `${monthShort(t)} ${t.day} ${time}`;
  return `${t.year}-${pad2(t.month)}-${pad2(t.day)}`;
}

/**
 * A day separator: "Today", "Yesterday", "Friday, November 20" this year,
 * "Wednesday, November 20, 2024" another year.
 */
export function formatDay(tsSeconds: number, opts: TimeOptions = {}): string {
  const t = parts(tsSeconds * 1000, opts.timeZone);
  const n = parts(nowMs(opts.now), opts.timeZone);
  if (t.dayNumber === n.dayNumber) return "Today";
  if (t.dayNumber === n.dayNumber - 1) return "Yesterday";
  const s = `${WEEKDAYS[t.weekday] ?? ""}, ${MONTHS[t.month - 1] ?? ""} ${t.day}`;
  return t.year === n.year ? s : `${s}, ${t.year}`;
}

/** A full date and time, as for `<time:…>` in a message: "Fri, Nov 20, 2026, 11:00". */
export function formatDateTime(tsSeconds: number, opts: Omit<TimeOptions, "now"> = {}): string {
  const t = parts(tsSeconds * 1000, opts.timeZone);
  const weekday = (WEEKDAYS[t.weekday] ?? "").slice(0, 3);
  return `${weekday}, ${monthShort(t)} ${t.day}, ${t.year}, ${clock(t, opts.twentyFourHour ?? true)}`;
}

/** Whether two timestamps fall on the same calendar day in the zone (for day separators). */
export function isSameDay(aSeconds: number, bSeconds: number, timeZone?: string): boolean {
  return parts(aSeconds * 1000, timeZone).dayNumber === parts(bSeconds * 1000, timeZone).dayNumber;
}
