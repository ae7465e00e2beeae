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
} from "@unheard/shared";
import { headerWords } from "./header-mapping.js";

// The words and values of a tracker's cells: genre, availability, quality, length, links, and the limits on names
// and text. Each parser is pure and linear in its cell.

/** A value the import cleaned up, with what the admin should know about it. */
export type Cleaned<T> = { value: T; warning?: string };

/** Cells that say "nothing known". */
const BLANKS = new Set(["", "-", "--", "?", "??", "n a", "none", "unknown", "tba", "tbd", "tbc"]);

/** Longer cells say something unless they hold no letter or digit at all ("------"): the words above are short. */
const BLANK_WORDS_CHARS = 24;

/** True for a blank cell or one that says it is unknown. */
export function isBlank(value: string): boolean {
  const s = value.trim();
  if (s === "") return true;
  // Every cell of every row is asked: the normalising below is kept for cells short enough to be one of the words.
  if (s.length > BLANK_WORDS_CHARS) return !/[\p{L}\p{N}]/u.test(s);
  return BLANKS.has(headerWords(s));
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

/** The quality a cell's words name outright ("Snippet (Recording)", "Full (CDQ)"), if any. */
function qualityHint(w: string): { quality?: Quality } {
  if (/\brecording\b|\brec\b/.test(w)) return { quality: "recording" };
  if (/\bcdq\b/.test(w)) return { quality: "cd_quality" };
  if (/\blossless\b/.test(w)) return { quality: "lossless" };
  if (/\bhq\b/.test(w)) return { quality: "high" };
  if (/\blq\b/.test(w)) return { quality: "low" };
  return {};
}

/**
 * How much of a song circulates, from a tracker's "Available Length" (or "Type", "Portion") cell; "Snippet
 * (recording)" and "CDQ" also say its quality. "Unavailable" / "Not Available" is a song known to exist with nothing
 * of it circulating: confirmed (era statistics count such songs as "Unavailable").
 */
export function parseAvailability(raw: string): Cleaned<Availability | null> & { quality?: Quality } {
  if (isBlank(raw)) return { value: null };
  const w = headerWords(raw);
  const quality = qualityHint(w);
  // A stem bounce is mixed down from the stems: before "stems", which alone means the session's own files.
  if (/\bstem bounces?\b|\bbounces?\b/.test(w)) return { value: "stem_bounce", ...quality };
  if (/\bog\b|\boriginal files?\b|\bstems?\b|\bsession\b/.test(w)) return { value: "og_file", ...quality };
  if (/\bbeat( only)?\b|\binstrumental\b|\binstru\b/.test(w)) return { value: "beat_only", ...quality };
  if (/\btagged\b|\btags?\b/.test(w)) return { value: "tagged", ...quality };
  if (/\bsnip(pet)?s?\b|\bpreview\b|\bclip\b/.test(w)) return { value: "snippet", ...quality };
  if (/\bpartial\b|\bincomplete\b|\bunfinished\b|\bhalf\b|\bpart\b/.test(w)) return { value: "partial", ...quality };
  if (/\bfull\b|\bcomplete\b|\bfinished\b|\bcdq\b/.test(w)) return { value: "full", ...quality };
  if (/\bconfirmed\b|\bunavailable\b|\bnot available\b|\bnone available\b/.test(w))
    return { value: "confirmed", ...quality };
  if (/\brumou?red\b|\brumou?rs?\b|\bspeculated\b/.test(w)) return { value: "rumored", ...quality };
  return { value: null, warning: `Unknown availability "${raw.trim()}": left empty` };
}

/**
 * The quality of the best copy, from the words trackers use (Lossless, CD Quality/CDQ, HQ, LQ, Recording, Not
 * Available). "OG" / "OG File" in a quality cell says nothing of the quality, only that an OG file exists: no
 * value, and the availability it hints at.
 */
export function parseQuality(raw: string): Cleaned<Quality | null> & { availability?: Availability } {
  if (isBlank(raw)) return { value: null };
  const w = headerWords(raw);
  if (/\bnot available\b|\bunavailable\b|\bnone available\b/.test(w)) return { value: "not_available" };
  if (/\blossless\b|\bflac\b|\bwav\b|\balac\b/.test(w)) return { value: "lossless" };
  if (/\bcd( quality)?\b|\bcdq\b/.test(w)) return { value: "cd_quality" };
  if (/\brecording\b|\brec\b|\brecorded\b/.test(w)) return { value: "recording" };
  if (/\bhq\b|\bhigh\b|\b320\b|\bgood\b/.test(w)) return { value: "high" };
  if (/\blq\b|\blow\b|\bbad\b|\b128\b/.test(w)) return { value: "low" };
  if (/^og( files?)?$/.test(w)) return { value: null, availability: "og_file" };
  return { value: null, warning: `Unknown quality "${raw.trim()}": left empty` };
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

// A URL runs to the next blank, comma, semicolon, quote or angle bracket: one pass, no quantifier meeting another.
const URL_IN_TEXT = /https?:\/\/[^\s,;"<>]+/gi;
/** Punctuation a sentence puts after a link ("see https://x.io/a.") and that no link of a tracker ends with. */
const TRAILING = new Set([".", ",", "!", "?", ":", "'", ")", "]"]);

/** A link without the sentence's punctuation after it; a closing bracket stays when the link opened one. */
function trimLink(link: string): string {
  const paren = link.indexOf("(");
  const bracket = link.indexOf("[");
  let end = link.length;
  // A loop from the end, not /[.,)]+$/: that pattern retries from every position of a run (quadratic).
  while (end > 0 && TRAILING.has(link.charAt(end - 1))) {
    const c = link.charAt(end - 1);
    if ((c === ")" && paren !== -1 && paren < end - 1) || (c === "]" && bracket !== -1 && bracket < end - 1)) break;
    end--;
  }
  return link.slice(0, end);
}

/** An absolute http(s) address with a host and no credentials (as the leak details schema takes). */
function isWebLink(link: string): boolean {
  try {
    const url = new URL(link);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "" && !url.username;
  } catch {
    return false;
  }
}

/**
 * The links of a tracker's "Link(s)" cell: every http(s) URL in it, whether split by new lines, commas, spaces or
 * semicolons, then the targets of the cell's hyperlinks (a workbook cell reading "Link" that links somewhere);
 * repeats dropped, order kept. At most LEAK_LIMITS.links of at most LEAK_LIMITS.link characters; what is left out,
 * and text that is no link ("Pillowcase", "Link Needed") in a cell no hyperlink accounts for, is a warning.
 */
export function parseLinks(cell: string, hyperlinks: string[] = []): Cleaned<string[]> {
  if (isBlank(cell) && hyperlinks.length === 0) return { value: [] };
  const label = IMPORT_FIELD_LABELS.links;
  const found: string[] = [];
  const rest = cell.replace(URL_IN_TEXT, (link) => {
    found.push(trimLink(link));
    return " ";
  });
  const warnings: string[] = [];
  const text = rest
    .split(/[\s,;]+/)
    .filter((piece) => piece !== "")
    .join(" ");
  if (hyperlinks.length === 0 && text !== "") warnings.push(`${label}: "${text.slice(0, 60)}" is not a link: left out`);
  const links = new Set<string>();
  let tooLong = 0;
  let notWeb = 0;
  for (const link of [...found, ...hyperlinks.map((h) => h.trim()).filter(Boolean)]) {
    if (link.length > LEAK_LIMITS.link) tooLong++;
    else if (!isWebLink(link)) notWeb++;
    else links.add(link);
  }
  if (tooLong > 0) warnings.push(`${label}: ${tooLong} link(s) longer than ${LEAK_LIMITS.link} characters, left out`);
  if (notWeb > 0) warnings.push(`${label}: ${notWeb} link(s) not an http(s) address, left out`);
  if (links.size > LEAK_LIMITS.links)
    warnings.push(`${label}: only the first ${LEAK_LIMITS.links} of ${links.size} links are kept`);
  const value = [...links].slice(0, LEAK_LIMITS.links);
  return warnings.length > 0 ? { value, warning: warnings.join("; ") } : { value };
}
