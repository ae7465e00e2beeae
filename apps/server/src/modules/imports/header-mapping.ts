import type { ImportField } from "@unheard/shared";

// Reading a sheet's header row: which field each column holds, from the names trackers give their columns.

/** A header or value lower-cased, accents and punctuation turned into spaces: "Artist(s)" -> "artist s". */
export function headerWords(s: string): string {
  // Every cell of a sheet comes through here: plain ASCII, the usual case, needs no Unicode normalising.
  if (/^[\t\n\r\x20-\x7e]*$/.test(s))
    return s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
  return s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

// Whole headers first, then single words a header holds (so "Leak Date (approx.)" is a leak date).
const EXACT: Readonly<Record<string, ImportField>> = {
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
  // Issue 37: where a leak can be found ("Link(s)" in community trackers).
  link: "links",
  links: "links",
  "link s": "links",
  download: "links",
  "download link": "links",
  source: "links",
  sources: "links",
  url: "links",
};
const BY_WORD: readonly [RegExp, ImportField][] = [
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

/**
 * The field a header names, and whether by its whole name (exact) or by a word inside it. A header written on
 * several lines ("Name\n(Check Out The Tracker Website!)", as trackers put a call to action under it) is named by
 * its first line.
 */
export function headerField(header: string): { field: ImportField; exact: boolean } | null {
  const words = headerWords(header);
  if (!words) return null;
  const firstLine = headerWords(header.trim().split("\n", 1)[0] ?? "");
  const exact = EXACT[words] ?? EXACT[firstLine];
  if (exact) return { field: exact, exact: true };
  const byWord = BY_WORD.find(([re]) => re.test(words))?.[1];
  return byWord ? { field: byWord, exact: false } : null;
}

/** A mapping guessed from the header names; each field goes to the first column that looks like it. */
export function guessMapping(headers: string[]): ImportField[] {
  const taken = new Set<ImportField>();
  const pick = (field: ImportField | undefined): ImportField => {
    if (!field || taken.has(field)) return "ignore";
    taken.add(field);
    return field;
  };
  const found = headers.map(headerField);
  // Exact names win over a word inside another header, whatever their order.
  const fields = found.map((f) => (f?.exact ? pick(f.field) : undefined));
  return found.map((f, i) => fields[i] ?? pick(f?.field));
}
