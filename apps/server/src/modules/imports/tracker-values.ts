import {
  type Availability,
  GENRES,
  type Genre,
  IMPORT_FIELD_LABELS,
  type ImportField,
  isAllowedSoundcloudUrl,
  LEAK_LIMITS,
  parseTrackLength,
  type Quality,
  SONG_TAG_LABELS,
  SONG_TAGS,
  type SongTag,
} from "@unheard/shared";

/** A header or value lower-cased, accents and punctuation turned into spaces: "Artist(s)" -> "artist s". */
export function headerWords(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

// Whole headers first, then single words a header holds (so "Leak Date (approx.)" is a leak date).
const EXACT: Record<string, ImportField> = {
  name: "title",
  song: "title",
  "song name": "title",
  "song title": "title",
  track: "title",
  "track name": "title",
  "track title": "title",
  title: "title",
  artist: "artists",
  artists: "artists",
  "artist s": "artists",
  "main artist": "artists",
  performer: "artists",
  genre: "genre",
  "release date": "releaseDate",
  released: "releaseDate",
  "date released": "releaseDate",
  era: "era",
  project: "era",
  album: "era",
  prod: "producers",
  "prod by": "producers",
  "produced by": "producers",
  producer: "producers",
  producers: "producers",
  "producer s": "producers",
  feat: "features",
  feats: "features",
  ft: "features",
  feature: "features",
  features: "features",
  "feature s": "features",
  featuring: "features",
  "leak date": "leakDate",
  leaked: "leakDate",
  "date leaked": "leakDate",
  "leaked on": "leakDate",
  leak: "leakDate",
  date: "leakDate",
  type: "availability",
  availability: "availability",
  available: "availability",
  portion: "availability",
  "available length": "availability",
  "availability length": "availability",
  "length available": "availability",
  "track length": "trackLength",
  "song length": "trackLength",
  length: "trackLength",
  duration: "trackLength",
  runtime: "trackLength",
  time: "trackLength",
  "file date": "fileDate",
  "date of file": "fileDate",
  "file created": "fileDate",
  "date made": "fileDate",
  "recorded on": "fileDate",
  aliases: "aliases",
  alias: "aliases",
  aka: "aliases",
  "also known as": "aliases",
  "alt names": "aliases",
  "alt name": "aliases",
  "alt titles": "aliases",
  "alternate names": "aliases",
  "alternate titles": "aliases",
  "other names": "aliases",
  references: "references",
  reference: "references",
  ref: "references",
  "ref by": "references",
  "reference track by": "references",
  tags: "tags",
  tag: "tags",
  markers: "tags",
  version: "versionLabel",
  "version label": "versionLabel",
  quality: "quality",
  "audio quality": "quality",
  notes: "notes",
  note: "notes",
  comments: "notes",
  comment: "notes",
  description: "notes",
  soundcloud: "soundcloudUrl",
  "soundcloud url": "soundcloudUrl",
  "soundcloud link": "soundcloudUrl",
};
const BY_WORD: [RegExp, ImportField][] = [
  [/\bleak(ed|s)?\b/, "leakDate"],
  [/\brelease(d)?\b/, "releaseDate"],
  [/\bprod(uced|ucer|ucers)?\b/, "producers"],
  [/\b(feat|ft|features?|featuring)\b/, "features"],
  [/\bartists?\b/, "artists"],
  [/\bsoundcloud\b/, "soundcloudUrl"],
  [/\bquality\b/, "quality"],
  [/\bnotes?\b/, "notes"],
  [/\b(song|track) (name|title)\b/, "title"],
];

/** A mapping guessed from the header names; each field goes to the first column that looks like it. */
export function guessMapping(headers: string[]): ImportField[] {
  const taken = new Set<ImportField>();
  const pick = (field: ImportField | undefined): ImportField => {
    if (!field || taken.has(field)) return "ignore";
    taken.add(field);
    return field;
  };
  const exact = headers.map((h) => EXACT[headerWords(h)]);
  // Exact names win over a word inside another header, whatever their order.
  const fields: (ImportField | undefined)[] = exact.map((f) => (f ? pick(f) : undefined));
  return headers.map((h, i) => {
    const done = fields[i];
    if (done !== undefined) return done;
    const words = headerWords(h);
    return pick(BY_WORD.find(([re]) => re.test(words))?.[1]);
  });
}

/** A value the import cleaned up, with what the admin should know about it. */
export type Cleaned<T> = { value: T; warning?: string };

/** Cells that say "nothing known". */
const BLANKS = new Set(["", "-", "--", "?", "??", "n a", "none", "unknown", "tba", "tbd", "tbc"]);

/** True for a blank cell or one that says it is unknown. */
export function isBlank(value: string): boolean {
  return BLANKS.has(headerWords(value));
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function ymd(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return date.toISOString().slice(0, 10);
}

const fullYear = (y: string) => {
  const n = Number(y);
  if (y.length === 4) return n;
  // Two-digit years: up to this year's are 20xx, the rest 19xx.
  return n <= new Date().getUTCFullYear() % 100 ? 2000 + n : 1900 + n;
};

const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

/** Month first, unless the first number cannot be a month (then day first). */
const monthFirst = ([a = "", b = "", y = ""]: string[]) =>
  Number(a) > 12 ? ymd(fullYear(y), Number(b), Number(a)) : ymd(fullYear(y), Number(a), Number(b));

/** The date formats parseDate reads, each with how its parts make a date. */
const DATE_RULES: [RegExp, (parts: string[]) => string | null][] = [
  [/^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ].*)?$/, ([y, m, d]) => ymd(Number(y), Number(m), Number(d))],
  [/^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/, monthFirst],
  [/^(\d{1,2})-(\d{1,2})-(\d{4})$/, monthFirst],
  [/^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/, ([d = "", m, y = ""]) => ymd(fullYear(y), Number(m), Number(d))],
  [
    /^([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/i,
    ([m = "", d, y]) => ymd(Number(y), monthOf(m), Number(d)),
  ],
  [
    /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+([a-z]{3,9})\.?,?[\s-]+(\d{4})$/i,
    ([d, m = "", y]) => ymd(Number(y), monthOf(m), Number(d)),
  ],
  // Days since 1899-12-30: a date cell exported without its format.
  [
    /^(\d{5})$/,
    ([n]) =>
      Number(n) > 20_000 && Number(n) < 80_000
        ? new Date(Date.UTC(1899, 11, 30) + Number(n) * 864e5).toISOString().slice(0, 10)
        : null,
  ],
];

/**
 * A date as YYYY-MM-DD. Accepted: 2021-01-05 (also with / or . and a time after it), 01/05/2021 (US month first,
 * as Google Sheets writes it; day first when the first number is over 12), 05.01.2021 (day first), two-digit
 * years, "Jan 5, 2021", "5 January 2021", and spreadsheet serial numbers. A year or month alone is not a date:
 * left empty with a warning, as is anything else.
 */
export function parseDate(raw: string, label: string): Cleaned<string | null> {
  const s = raw.trim();
  if (isBlank(s)) return { value: null };
  let value: string | null = null;
  for (const [re, read] of DATE_RULES) {
    const m = re.exec(s);
    if (m) {
      value = read(m.slice(1).map((g) => g ?? ""));
      break;
    }
  }
  if (value) return { value };
  const partial = /^(\d{4})(?:[-/.]\d{1,2})?$|^[a-z]{3,9}\.?\s+\d{4}$/i.test(s);
  return {
    value: null,
    warning: partial
      ? `${label} "${s}" is not a full date: left empty`
      : `${label} "${s}" is not a date we can read: left empty`,
  };
}

const GENRE_SYNONYMS: Record<string, Genre> = {
  "hip hop": "Rap",
  hiphop: "Rap",
  trap: "Rap",
  drill: "Rap",
  edm: "Electronic",
  house: "Electronic",
  techno: "Electronic",
  dubstep: "Electronic",
  dance: "Electronic",
  dnb: "Electronic",
  "drum and bass": "Electronic",
  punk: "Rock",
  metal: "Rock",
  "alt rock": "Rock",
};

/** A genre of spec §5; a blank cell is Other, an unknown name Other with a warning. */
export function parseGenre(raw: string): Cleaned<Genre> {
  if (isBlank(raw)) return { value: "Other" };
  const words = headerWords(raw);
  const exact = GENRES.find((g) => g.toLowerCase() === words);
  if (exact) return { value: exact };
  const synonym = GENRE_SYNONYMS[words];
  if (synonym) return { value: synonym };
  return { value: "Other", warning: `Unknown genre "${raw.trim()}": imported as Other` };
}

/**
 * How much of a song circulates, from a tracker's "Available Length" (or "Type", "Portion") cell; "Snippet
 * (recording)" also says its quality.
 */
export function parseAvailability(raw: string): Cleaned<Availability | null> & { quality?: Quality } {
  if (isBlank(raw)) return { value: null };
  const w = headerWords(raw);
  const quality: { quality?: Quality } = /\brecording\b|\brec\b/.test(w) ? { quality: "recording" } : {};
  if (/\bog\b|\boriginal files?\b|\bstems?\b|\bsession\b/.test(w)) return { value: "og_file", ...quality };
  if (/\bbeat( only)?\b|\binstrumental\b|\binstru\b/.test(w)) return { value: "beat_only", ...quality };
  if (/\btagged\b|\btags?\b/.test(w)) return { value: "tagged", ...quality };
  if (/\bsnip(pet)?s?\b|\bpreview\b|\bclip\b/.test(w)) return { value: "snippet", ...quality };
  if (/\bpartial\b|\bincomplete\b|\bunfinished\b|\bhalf\b|\bpart\b/.test(w)) return { value: "partial", ...quality };
  if (/\bfull\b|\bcomplete\b|\bfinished\b|\bcdq\b/.test(w)) return { value: "full", ...quality };
  if (/\bconfirmed\b/.test(w)) return { value: "confirmed", ...quality };
  if (/\brumou?red\b|\brumou?rs?\b|\bspeculated\b/.test(w)) return { value: "rumored", ...quality };
  return { value: null, warning: `Unknown availability "${raw.trim()}": left empty` };
}

/** The quality of the best copy, from the words trackers use (Lossless, CD Quality, HQ, LQ, Recording, Not Available). */
export function parseQuality(raw: string): Cleaned<Quality | null> {
  if (isBlank(raw)) return { value: null };
  const w = headerWords(raw);
  if (/\bnot available\b|\bunavailable\b|\bnone available\b/.test(w)) return { value: "not_available" };
  if (/\blossless\b|\bflac\b|\bwav\b|\balac\b/.test(w)) return { value: "lossless" };
  if (/\bcd( quality)?\b|\bcdq\b/.test(w)) return { value: "cd_quality" };
  if (/\brecording\b|\brec\b|\brecorded\b/.test(w)) return { value: "recording" };
  if (/\bhq\b|\bhigh\b|\b320\b|\bgood\b/.test(w)) return { value: "high" };
  if (/\blq\b|\blow\b|\bbad\b|\b128\b/.test(w)) return { value: "low" };
  return { value: null, warning: `Unknown quality "${raw.trim()}": left empty` };
}

// Every pattern below runs on whitespace already squeezed to single spaces, so no quantifier meets another over
// a run of spaces: a cell of "a" + 3,000 spaces + "b" backtracked cubically through `\s*(?:…|\s+x\s+)\s*`
// (25 s on one preview). Each split now does a fixed amount of work per position: linear in the cell.
const FEATURE_SPLIT = /[ \n](?:feat\.?|ft\.?|featuring)[ \n]/i;
const NAME_SPLIT = / ?(?:[,&/;+\n]| x ) ?/i;

/** A cell with each run of blanks (newlines aside: they separate names) made one space; linear time. */
function squeeze(raw: string): string {
  return raw.replace(/[^\S\n]+/g, " ");
}

/** Names in one cell: split on ",", "&", "/", ";", "+", a new line and " x "; blank and repeated names dropped. */
export function splitNames(raw: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const piece of squeeze(raw).split(NAME_SPLIT)) {
    const name = piece.normalize("NFKC").trim().replace(/\s+/g, " ");
    const key = name.toLowerCase();
    if (!name || isBlank(name) || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

/** An artists cell: the names, and those after "feat." / "ft." as features. */
export function splitArtists(raw: string): { artists: string[]; features: string[] } {
  const [main = "", ...rest] = squeeze(raw).split(FEATURE_SPLIT);
  return { artists: splitNames(main), features: splitNames(rest.join(", ")) };
}

/** What a tracker's name cell holds besides the title. */
export type TitleParts = {
  title: string;
  features: string[];
  producers: string[];
  references: string[];
  aliases: string[];
  versionLabel: string | null;
  /** The marks found before or after the title ("⭐", "🏆"), in order, without their variation selectors. */
  marks: string[];
};

// An emoji with its modifiers and joined parts ("🗑️", "👨‍🎤"), as trackers put them before a title.
const MARK =
  /\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)*/gu;

/** A mark as the legend keys it: variation selectors dropped ("🗑️" and "🗑" are one mark). */
export const markKey = (mark: string): string => mark.replace(/\uFE0F/g, "");

/**
 * A title with what trackers write into it taken out: "(feat. X)" and "(prod. Y)" as features and producers,
 * "(ref. X)" as reference credits, "(Alt: X)", "[aka X]" as aliases, "[V2]" as the version label, and the marks
 * (emoji) before or after it.
 */
export function splitTitle(raw: string): TitleParts {
  const features: string[] = [];
  const producers: string[] = [];
  const references: string[] = [];
  const aliases: string[] = [];
  let versionLabel: string | null = null;
  const marks: string[] = [];
  // Blanks squeezed first and names stopping at the next bracket: each position is tried in constant work and
  // each character read by one bracket at most (an unclosed "(feat." no longer rescans the rest of the cell).
  const title = raw
    .replace(/\s+/g, " ")
    .replace(MARK, (mark) => {
      marks.push(markKey(mark));
      return " ";
    })
    .replace(/ ?[([] ?(feat\.?|ft\.?|featuring|with) ([^()[\]]+)[)\]]/gi, (_all, _word, names: string) => {
      features.push(...splitNames(names));
      return "";
    })
    .replace(/ ?[([] ?prod(?:\.|uced)?(?: by)?\.? ([^()[\]]+)[)\]]/gi, (_all, names: string) => {
      producers.push(...splitNames(names));
      return "";
    })
    .replace(/ ?[([] ?ref(?:\.|erence)?(?: track)?(?: by)?[.:]? ([^()[\]]+)[)\]]/gi, (_all, names: string) => {
      references.push(...splitNames(names));
      return "";
    })
    .replace(
      / ?[([] ?(?:alt(?:ernate)?(?: titles?| names?)?[.:]|alt(?:ernate)? (?:titles?|names?)|a\.?k\.?a\.?:?|also known as:?) ([^()[\]]+)[)\]]/gi,
      (_all, names: string) => {
        aliases.push(...splitNames(names));
        return "";
      },
    )
    .replace(/ ?[([] ?(?:v|ver\.?|version) ?(\d{1,3}[a-z]?) ?[)\]]/gi, (all, n: string) => {
      if (versionLabel !== null) return all;
      versionLabel = `V${n.toUpperCase()}`;
      return "";
    })
    .normalize("NFKC")
    .trim()
    .replace(/\s+/g, " ");
  return { title, features, producers, references, aliases, versionLabel, marks };
}

/** Tags from a title's marks through a legend; marks the legend does not know are reported. */
export function tagsOf(marks: string[], legend: Readonly<Record<string, SongTag | "ignore">>): Cleaned<SongTag[]> {
  const tags: SongTag[] = [];
  const unknown: string[] = [];
  for (const mark of marks) {
    const tag = legend[mark] ?? legend[markKey(mark)];
    if (tag === undefined) unknown.push(mark);
    else if (tag !== "ignore" && !tags.includes(tag)) tags.push(tag);
  }
  const ordered = SONG_TAGS.filter((t) => tags.includes(t));
  if (unknown.length === 0) return { value: ordered };
  return { value: ordered, warning: `Mark ${unknown.join(" ")} is not in the legend: left out` };
}

/** A tags cell: tag names or labels ("Best of, Grail") or marks, comma-separated. */
export function parseTagsCell(raw: string, legend: Readonly<Record<string, SongTag | "ignore">>): Cleaned<SongTag[]> {
  if (isBlank(raw)) return { value: [] };
  const marks: string[] = [];
  const rest = raw.replace(MARK, (m) => {
    marks.push(markKey(m));
    return ",";
  });
  const fromMarks = tagsOf(marks, legend);
  const tags = new Set<SongTag>(fromMarks.value);
  const unknown: string[] = [];
  for (const piece of rest.split(/[,;/]/)) {
    const w = headerWords(piece);
    if (!w) continue;
    const tag = SONG_TAGS.find(
      (t) =>
        t === w.replace(/ /g, "_") ||
        headerWords(SONG_TAG_LABELS[t]) === w ||
        headerWords(SONG_TAG_LABELS[t]).split(" ")[0] === w,
    );
    if (tag) tags.add(tag);
    else unknown.push(piece.trim());
  }
  const value = SONG_TAGS.filter((t) => tags.has(t));
  const warnings = [
    fromMarks.warning,
    unknown.length > 0 ? `Unknown tag "${unknown.join(", ")}": left out` : undefined,
  ].filter(Boolean);
  return warnings.length > 0 ? { value, warning: warnings.join("; ") } : { value };
}

/** A track length cell ("3:45", "225") as seconds; anything else is left empty with a warning. */
export function parseLength(raw: string): Cleaned<number | null> {
  const s = raw.trim();
  if (isBlank(s)) return { value: null };
  const sec = parseTrackLength(s);
  if (sec !== null && sec <= LEAK_LIMITS.trackLengthSec) return { value: sec };
  return { value: null, warning: `Track length "${s.slice(0, 40)}" is not a length we can read: left empty` };
}

/** At most LEAK_LIMITS.names names of at most LEAK_LIMITS.name characters; what was left out is a warning. */
export function limitNames(names: string[], field: ImportField): Cleaned<string[]> {
  const label = IMPORT_FIELD_LABELS[field];
  const fit = names.filter((n) => n.length <= LEAK_LIMITS.name);
  const kept = fit.slice(0, LEAK_LIMITS.names);
  if (kept.length === names.length) return { value: kept };
  return { value: kept, warning: `${label}: ${names.length - kept.length} name(s) too long or too many, left out` };
}

/** Text cut to `max` characters, with a warning when it was longer. */
export function limitText(raw: string, max: number, field: ImportField): Cleaned<string | null> {
  const s = raw.trim();
  if (isBlank(s)) return { value: null };
  if (s.length <= max) return { value: s };
  return { value: s.slice(0, max), warning: `${IMPORT_FIELD_LABELS[field]} cut to ${max} characters` };
}

/** A SoundCloud link DESIGN §5 allows; other links are left out with a warning. */
export function parseSoundcloud(raw: string): Cleaned<string | null> {
  const s = raw.trim();
  if (isBlank(s)) return { value: null };
  if (s.length <= 500 && isAllowedSoundcloudUrl(s)) return { value: s };
  return { value: null, warning: `"${s.slice(0, 60)}" is not a SoundCloud link: left out` };
}
