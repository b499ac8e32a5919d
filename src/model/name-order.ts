/**
 * The order of names in lists (channels, people, snippets): as `Intl.Collator(undefined,
 * { sensitivity: "base", numeric: true })` gives it: case and accents aside, numbers by their
 * value. The collator is ICU's, and the first one made in a process costs ~6 ms and pages in
 * ~3 MB of ICU's data, on the way to the first frame (the sidebar is sorted by name).
 *
 * Names made only of ASCII letters, digits, spaces, `_`, `-` and `.` are compared here instead,
 * by the rules the collator applies to them (Unicode's root collation): space, then `_`, `-`,
 * `.`, then digits, then letters; a letter's case does not count; a run of digits is one
 * number (leading zeros aside); a name that is the start of another comes first. This holds
 * only where the locale does not change the order of these characters (Danish sorts "aa" as
 * "å", Czech "ch" after "h", Estonian "z" after "s"…): the locale's language must be English, C or
 * POSIX, or unset. Any other name, or locale, goes to the collator (made then, once).
 * test/unit/name-order.test.ts compares both on generated names of these characters.
 */

/** The collator's primary weight of a character of the simple names (digits are taken as runs); 0 outside them. */
function weight(c: number): number {
  if (c >= 97 && c <= 122) return c; // a–z
  if (c >= 65 && c <= 90) return c + 32; // A–Z, as a–z
  switch (c) {
    case 32: // space
      return 1;
    case 95: // _
      return 2;
    case 45: // -
      return 3;
    case 46: // .
      return 4;
    default:
      return 0;
  }
}

const DIGIT = 5;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isSimple = (c: number) => isDigit(c) || weight(c) !== 0;

/** A run of digits of at most this many significant figures is compared here (longer ones, by the collator). */
const MAX_RUN = 15;

/**
 * The two names compared as the collator would (negative, 0 or positive), or undefined when
 * either is not a simple name.
 */
export function compareSimpleNames(a: string, b: string): number | undefined {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    const da = isDigit(ca);
    const db = isDigit(cb);
    if (da && db) {
      // Two numbers: by value (their significant figures, then those figures in order).
      let ea = i;
      while (ea < a.length && isDigit(a.charCodeAt(ea))) ea++;
      let eb = j;
      while (eb < b.length && isDigit(b.charCodeAt(eb))) eb++;
      while (i < ea - 1 && a.charCodeAt(i) === 48) i++;
      while (j < eb - 1 && b.charCodeAt(j) === 48) j++;
      if (ea - i > MAX_RUN || eb - j > MAX_RUN) return undefined;
      if (ea - i !== eb - j) return ea - i - (eb - j);
      for (; i < ea; i++, j++) {
        const d = a.charCodeAt(i) - b.charCodeAt(j);
        if (d !== 0) return d;
      }
      continue;
    }
    const wa = da ? DIGIT : weight(ca);
    const wb = db ? DIGIT : weight(cb);
    if (wa === 0 || wb === 0) return undefined;
    if (wa !== wb) return wa - wb;
    i++;
    j++;
  }
  // One ran out: the rest of the other must be simple too, and the shorter name comes first.
  for (let k = i; k < a.length; k++) if (!isSimple(a.charCodeAt(k))) return undefined;
  for (let k = j; k < b.length; k++) if (!isSimple(b.charCodeAt(k))) return undefined;
  return a.length - i - (b.length - j);
}

/** Languages whose collation orders the simple names as the root collation does (their locale's other letters aside). */
const keepsRootOrder = (language: string) => language === "" || language === "c" || language === "posix" || language === "en";

/**
 * Whether the default locale leaves the simple names in the root order. ICU takes it from
 * LC_ALL, LC_MESSAGES or LANG; to be safe, every one of those, LC_COLLATE and LANGUAGE that is set
 * must name such a language.
 */
export function localeKeepsRootOrder(env: NodeJS.ProcessEnv): boolean {
  for (const name of ["LC_ALL", "LC_COLLATE", "LC_MESSAGES", "LANG", "LANGUAGE"]) {
    const value = env[name];
    if (!value) continue;
    for (const part of value.split(":")) {
      const language = /^[A-Za-z]*/.exec(part)![0].toLowerCase();
      if (!keepsRootOrder(language)) return false;
    }
  }
  return true;
}

/** Compares two names for a list's order: simple names here when the locale allows, the rest by the collator. */
export type NameOrder = (a: string, b: string) => number;

export function nameOrder(env: NodeJS.ProcessEnv = process.env): NameOrder {
  const simple = localeKeepsRootOrder(env);
  let collator: Intl.Collator | undefined;
  return (a, b) => {
    const here = simple ? compareSimpleNames(a, b) : undefined;
    if (here !== undefined) return Math.sign(here);
    collator ??= new Intl.Collator(undefined, { sensitivity: "base", numeric: true });
    return collator.compare(a, b);
  };
}

/** The process's order of names (the locale read once, the collator made on its first use). */
export const compareNames: NameOrder = nameOrder();
