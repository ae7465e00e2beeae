import { type Cleaned, isBlank } from "./cell-words.js";

// Dates as trackers write them, kept as precise as they are known: "YYYY-MM-DD", "YYYY-MM" or "YYYY". Every
// pattern is anchored and runs on blanks squeezed to one space, so each does a bounded amount of work per character.

const MONTH_NAMES = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** The month a name or its abbreviation names ("Jun", "June", "Sept"), else 0 ("Junk" is no month). */
function monthOf(name: string): number {
  const w = name.toLowerCase();
  if (w.length < 3) return 0;
  if (w === "sept") return 9;
  return MONTH_NAMES.findIndex((m) => m.startsWith(w)) + 1;
}

const inRange = (y: number) => y >= 1900 && y <= 2100;
const pad = (n: number) => String(n).padStart(2, "0");

function ymd(y: number, m: number, d: number): string | null {
  if (!inRange(y) || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return date.toISOString().slice(0, 10);
}

const ym = (y: number, m: number): string | null => (inRange(y) && m >= 1 && m <= 12 ? `${y}-${pad(m)}` : null);
const yearOnly = (y: number): string | null => (inRange(y) ? String(y) : null);

const fullYear = (y: string) => {
  const n = Number(y);
  if (y.length === 4) return n;
  // Two-digit years: up to this year's are 20xx, the rest 19xx.
  return n <= new Date().getUTCFullYear() % 100 ? 2000 + n : 1900 + n;
};

/** A part of a date written as unknown: "?", "??", "x", "xx". */
const unknown = (part: string) => /^(?:\?{1,2}|x{1,2})$/i.test(part);
const PART = "(\\d{1,2}|\\?{1,2}|[xX]{1,2})";

/**
 * Day and month from the two numbers before a year, one or both possibly unknown. Both known: month first as Google
 * Sheets writes it ("/" and "-"), day first when the first number cannot be a month or the separator is "." (D.M.Y).
 * One known: it is the month (a day alone says nothing), if it can be one.
 */
function dayMonth(a: string, b: string, sep: string, y: number): string | null {
  if (unknown(a) && unknown(b)) return yearOnly(y);
  if (unknown(a) || unknown(b)) {
    const known = Number(unknown(a) ? b : a);
    return known >= 1 && known <= 12 ? ym(y, known) : yearOnly(y);
  }
  if (sep === "." || Number(a) > 12) return ymd(y, Number(b), Number(a));
  return ymd(y, Number(a), Number(b));
}

/** The date formats readDate reads, each with how its parts make a date. */
const DATE_RULES: [RegExp, (parts: string[]) => string | null][] = [
  // 2021-01-05, 2021/1/5, 2021.01.05 (a time after it allowed); 2019-06-?? keeps the month, 2019-??-?? the year.
  [
    new RegExp(`^(\\d{4})[-/.]${PART}[-/.]${PART}(?:[T ].*)?$`),
    ([y = "", m = "", d = ""]) =>
      unknown(m) ? yearOnly(Number(y)) : unknown(d) ? ym(Number(y), Number(m)) : ymd(Number(y), Number(m), Number(d)),
  ],
  // 01/05/2021, 1/5/21, 01-05-2021, 05.01.2021, ??/??/2019, ??/06/2019.
  [
    new RegExp(`^${PART}([-/.])${PART}\\2(\\d{2}|\\d{4})$`),
    ([a = "", sep = "", b = "", y = ""]) => dayMonth(a, b, sep, fullYear(y)),
  ],
  // 2019-06, 2019/06, 2019.06; 2019-?? is the year.
  [
    new RegExp(`^(\\d{4})[-/.]${PART}$`),
    ([y = "", m = ""]) => (unknown(m) ? yearOnly(Number(y)) : ym(Number(y), Number(m))),
  ],
  // 06/2019, 6-2019; ??/2019 is the year.
  [
    new RegExp(`^${PART}[-/.](\\d{4})$`),
    ([m = "", y = ""]) => (unknown(m) ? yearOnly(Number(y)) : ym(Number(y), Number(m))),
  ],
  // Jan 5, 2021; January 5th 2021.
  [/^([a-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/i, ([m = "", d, y]) => ymd(Number(y), monthOf(m), Number(d))],
  // 5 Jan 2021; 5-Jan-2021; 5th of June 2021.
  [
    /^(\d{1,2})(?:st|nd|rd|th)?(?: of)?[ -]([a-z]{3,9})\.?,?[ -](\d{4})$/i,
    ([d, m = "", y]) => ymd(Number(y), monthOf(m), Number(d)),
  ],
  // June 2019; Jun. 2019; June, 2019.
  [/^([a-z]{3,9})\.?,? (\d{4})$/i, ([m = "", y]) => ym(Number(y), monthOf(m))],
  // 2019.
  [/^(\d{4})$/, ([y]) => yearOnly(Number(y))],
  // Days since 1899-12-30: a date cell exported without its format.
  [
    /^(\d{5})$/,
    ([n]) =>
      Number(n) > 20_000 && Number(n) < 80_000
        ? new Date(Date.UTC(1899, 11, 30) + Number(n) * 864e5).toISOString().slice(0, 10)
        : null,
  ],
];

/** A part of a year or month trackers name instead of a date: "Early 2020", "Summer 2021", "Q3 2018". */
const PART_OF =
  /^(?:(?:early|middle|mid|late|spring|summer|fall|autumn|winter)(?: of)?|(?:beginning|start|end) of|q[1-4])[ -]?(.+)$/i;
const YEAR_QUARTER = /^(\d{4}) q[1-4]$/i;
/** How trackers say a date is a guess: "c. 2019", "circa 2019", "~2019", "approx. 2019". */
const GUESS_BEFORE = /^(?:c\.|ca\.|circa|approx\.?|approximately|around|about|est\.|estimated|~) ?/i;
const GUESS_AFTER = / ?(?:\((?:approx\.?|approximately|est\.?|estimated)\)|approx\.?)$/i;

/** A trailing run of "?" ("2019?") cut off, unless it stands for a part of the date ("2019-06-??"). */
function withoutQuestionMarks(s: string): string {
  let end = s.length;
  while (end > 0 && s.charAt(end - 1) === "?") end--;
  if (end === s.length || end === 0 || "-/.".includes(s.charAt(end - 1))) return s;
  return s.slice(0, end).trimEnd();
}

/** The date a squeezed, trimmed text states, at the precision it states it; null when it is none. */
function readDate(text: string): string | null {
  const s = withoutQuestionMarks(text.replace(GUESS_BEFORE, "").replace(GUESS_AFTER, ""));
  // Parts of a year first: "Early 2020" would otherwise read as a month named "Early".
  const quarter = YEAR_QUARTER.exec(s);
  if (quarter) return yearOnly(Number(quarter[1]));
  const part = PART_OF.exec(s);
  if (part) {
    const within = part[1] ?? "";
    // Only a year or a month of one: "Early 2020", "Late June 2019".
    const year = /^(\d{4})$/.exec(within);
    if (year) return yearOnly(Number(year[1]));
    const month = /^([a-z]{3,9})\.?,? (\d{4})$/i.exec(within);
    return month ? ym(Number(month[2]), monthOf(month[1] ?? "")) : null;
  }
  for (const [re, read] of DATE_RULES) {
    const m = re.exec(s);
    if (m) return read(m.slice(1).map((g) => g ?? ""));
  }
  return null;
}

/** Blanks squeezed to one space and trimmed: linear, and what every pattern above expects. */
const squeeze = (raw: string) => raw.replace(/\s+/g, " ").trim();

/**
 * A date as precise as the cell knows it: "YYYY-MM-DD", "YYYY-MM" or "YYYY". Full dates: 2021-01-05 (also with / or
 * . and a time after it), 01/05/2021 (US month first, as Google Sheets writes it; day first when the first number
 * is over 12), 05.01.2021 (day first), two-digit years, "Jan 5, 2021", "5 January 2021", spreadsheet serial
 * numbers. Partial ones keep what is known and invent nothing: "??/??/2019", "2019?", "c. 2019", "Early 2020",
 * "Summer 2021", "Q3 2018" are 2019, 2020, 2021, 2018; "??/06/2019", "2019-06-??", "June 2019", "06/2019" are
 * 2019-06. Years run 1900-2100 and dates are checked against the calendar; anything else is left empty with a
 * warning.
 */
export function parseDate(raw: string, label: string): Cleaned<string | null> {
  const s = squeeze(raw);
  if (isBlank(s)) return { value: null };
  const value = readDate(s);
  if (value) return { value };
  return { value: null, warning: `${label} "${s.slice(0, 60)}" is not a date we can read: left empty` };
}

/** An era's span as its sheet states it: each end as precise as known, endsOn null while it lasts ("Present"). */
export type Span = { startsOn: string | null; endsOn: string | null };

const RANGE_SEPARATOR = / (?:-|–|—|~|to|until|till|through|thru) /i;
const OPEN_END = /^(?:present|now|current|today|ongoing)$/i;

/** One end of a span: a date, "open" (Present) or "unknown" ("?"); null when it is neither. */
function spanEnd(raw: string): string | "open" | "unknown" | null {
  const s = raw.trim();
  if (OPEN_END.test(s)) return "open";
  if (isBlank(s) || /^\?+$/.test(s)) return "unknown";
  return readDate(s);
}

/**
 * The span of an era as a tracker writes it in a date cell or after the era's name: "(2018 - 2019)", "2018-2019",
 * "2018 – 2019", "(Jan 2018 - Mar 2019)", "06/2018 - 02/2019", "(2018 - Present)" (no end yet), or one bracketed
 * date, "(2019)" (both ends). Each end follows parseDate's rules. Null when the text is no span (a lone date
 * without brackets is a date, not a span).
 */
export function parseSpan(text: string): Span | null {
  let s = squeeze(text);
  // A span is a few words: a longer cell is something else, and is not read further.
  if (s.length > 80) return null;
  const bracketed = /^[([] ?(.*?) ?[)\]]$/.exec(s);
  if (bracketed) s = bracketed[1] ?? "";
  let parts: [string, string] | null = null;
  const spaced = RANGE_SEPARATOR.exec(s);
  if (spaced) parts = [s.slice(0, spaced.index), s.slice(spaced.index + spaced[0].length)];
  else {
    // Unspaced: a dash between two years or dates that have no dash of their own ("2018-2019", "06/2018–02/2019").
    const dashes = s.match(/[-–—]/g) ?? [];
    const at = s.search(/[-–—]/);
    if (dashes.length === 1 && at > 0) parts = [s.slice(0, at), s.slice(at + 1)];
  }
  const start = parts ? spanEnd(parts[0]) : null;
  const end = parts ? spanEnd(parts[1]) : null;
  if (start === null || end === null || start === "open") {
    // Not two ends: one bracketed date ("(2019)") spans itself.
    const single = bracketed ? readDate(s) : null;
    return single ? { startsOn: single, endsOn: single } : null;
  }
  const startsOn = start === "unknown" ? null : start;
  const endsOn = end === "unknown" || end === "open" ? null : end;
  if (startsOn === null && endsOn === null) return null;
  // The start not after the end, compared at the precision both know.
  if (startsOn && endsOn) {
    const n = Math.min(startsOn.length, endsOn.length);
    if (startsOn.slice(0, n) > endsOn.slice(0, n)) return null;
  }
  return { startsOn, endsOn };
}
