// The tracker bench:sync serves (issue 37): one artist's sheet in the community layout, generated from a seed with
// the project's seeded random (packages/shared/src/random.ts). A title row, an announcement row with "Last updated"
// and a notice above the header; about 40 eras, each an era header row (availability statistics in the Era cell,
// the era's name, story and span) followed by songs whose Era cell is blank; medal and other marks, features,
// producers, version labels, partial dates ("??/??/2019", "Early 2020", "Q3 2018"), several links in a cell. The
// same model renders as CSV and as an XLSX workbook (tabs Unreleased, Updates, Info; hyperlinks behind "Link"
// cells, full dates as typed date cells). Edits for the benchmark's syncs change the model in place.
import * as XLSX from "@e965/xlsx";
import { hashString, seededRandom } from "@unheard/shared";

/** A date cell: the text a CSV shows, and the day when it is a whole date (an XLSX date cell). */
type DateCell = { text: string; day: string | null };

type Song = {
  id: number;
  /** The Era cell as written: blank under an era header, now and then the era's name again. */
  eraCell: string;
  mark: string;
  title: string;
  feat: string | null;
  prod: string | null;
  version: string | null;
  notes: string;
  length: string;
  fileDate: DateCell;
  leakDate: DateCell;
  availability: string;
  quality: string;
  links: string[];
  /** How a cell of several links splits them; an XLSX cell of one link may show "Link" with the URL behind it. */
  linkSplit: "\n" | ", ";
  linkLabel: boolean;
};

type Era = { name: string; story: string; from: number; to: number; songs: Song[] };

/** One artist's tracker, its rows as a model the bench edits between syncs. */
export type Tracker = {
  artist: string;
  slug: string;
  updated: string;
  eras: Era[];
  /** The next id for a new song row (links are named after it). */
  nextId: number;
  random: () => number;
  usedTitles: Set<string>;
};

/** What one 10-row change did, for the report and the checks. */
export type Edit = { kind: EditKind; row: string };
export type EditKind = "availability upgrade" | "quality upgrade" | "new song" | "rename" | "removal" | "notes";

const ADJECTIVES = (
  "Amber Ashen Blue Broken Burning Cold Crimson Dark Distant Electric Empty Endless Faded Fallen Frozen Gentle " +
  "Golden Hollow Honest Hidden Last Late Lonely Lost Lucky Midnight Neon Northern Pale Paper Quiet Restless Rusted " +
  "Salt Secret Silent Silver Slow Small Soft Southern Static Still Strange Sudden Sweet Tender Velvet Violet Wild " +
  "Winter Wooden Young Bitter Brave Copper Drowned Early Heavy Open"
).split(" ");
const NOUNS = (
  "Anchor Arrow Avenue Bridge Candle Canyon Cathedral Coast Comet Crown Dawn Desert Dream Echo Ember Engine Feather " +
  "Field Fire Garden Ghost Harbor Heart Highway Horizon Island Lantern Letter Light Machine Mirror Moon Motel " +
  "Mountain Ocean Orchard Palace Radio River Road Room Satellite Shadow Signal Sky Smoke Song Star Station Storm " +
  "Summer Sun Tide Tower Train Valley Water Window Wire Wolf"
).split(" ");
const FIRST = "Mara Orrin Tessa Jalen Nico Ivy Soren Lila Cass Remy Juno Kai Elio Wren Dara Milo".split(" ");
const LAST = "Quill Vale Marsh Rook Sable Lark Thorne Voss Reyes Hale Crane Frost Wilde Moss".split(" ");
const NOTE_PHRASES = [
  "Played at a show.",
  "Previewed on Instagram live.",
  "Leaked in a group buy.",
  "Snippet from a studio session video.",
  "Reference track for another artist.",
  "Early version with different verses.",
  "Surfaced on a producer's stream.",
  "Intended for the album, cut late.",
  "Engineer confirmed it exists.",
  "Sold as part of a bundle.",
];
const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");
const SEASONS = ["Early", "Mid", "Late", "Spring", "Summer", "Fall", "Winter"];

/** The availability written in a row, by weight; each has the quality words a tracker pairs with it. */
const AVAILABILITY: [string, number, string[]][] = [
  ["Full", 30, ["HQ", "CDQ", "LQ", "High Quality", "Lossless"]],
  ["Snippet", 24, ["LQ", "HQ", "Recording"]],
  ["OG File", 10, ["Lossless", "OG", "CDQ"]],
  ["Partial", 5, ["HQ", "LQ"]],
  ["Tagged", 5, ["HQ", "LQ"]],
  ["Beat Only", 3, ["HQ", "CDQ"]],
  ["Stem Bounce", 3, ["Lossless", "CDQ"]],
  ["Unavailable", 12, ["Not Available"]],
  ["Not Available", 2, ["Not Available"]],
  ["Confirmed", 4, ["Not Available"]],
  ["Rumored", 2, ["Not Available"]],
];
const MARKS: [string, number][] = [
  ["", 86],
  ["⭐", 5],
  ["🥇", 2],
  ["🥈", 1],
  ["🥉", 1],
  ["✨", 2],
  ["🗑️", 1],
  ["🏆", 1],
  // A mark the default legend does not know: the dry run lists it.
  ["🔥", 1],
];
const STAT_LABELS: [string, string[]][] = [
  ["OG File(s)", ["OG File"]],
  ["Stem Bounce(s)", ["Stem Bounce"]],
  ["Full", ["Full"]],
  ["Tagged", ["Tagged"]],
  ["Partial", ["Partial"]],
  ["Beat Only", ["Beat Only"]],
  ["Snippet(s)", ["Snippet"]],
  ["Unavailable", ["Unavailable", "Not Available", "Confirmed"]],
  ["Rumored", ["Rumored"]],
];

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
function weighted<T>(r: () => number, list: readonly (readonly [T, number, ...unknown[]])[]): T {
  const total = list.reduce((n, e) => n + e[1], 0);
  let x = r() * total;
  for (const e of list) {
    x -= e[1];
    if (x < 0) return e[0];
  }
  return (list[list.length - 1] as readonly [T, number])[0];
}
const pad2 = (n: number) => String(n).padStart(2, "0");

function newTitle(t: Pick<Tracker, "random" | "usedTitles">): string {
  for (;;) {
    const r = t.random();
    const title =
      r < 0.55
        ? `${pick(t.random, ADJECTIVES)} ${pick(t.random, NOUNS)}`
        : r < 0.75
          ? `The ${pick(t.random, NOUNS)}`
          : r < 0.9
            ? `${pick(t.random, NOUNS)} ${pick(t.random, NOUNS)}`
            : `${pick(t.random, ADJECTIVES)} ${pick(t.random, ADJECTIVES)} ${pick(t.random, NOUNS)}`;
    if (!t.usedTitles.has(title.toLowerCase())) {
      t.usedTitles.add(title.toLowerCase());
      return title;
    }
  }
}

/** A date within `from`..`to`: a whole date in one of the ways trackers write it, or one with unknown parts. */
function dateIn(r: () => number, from: number, to: number, partial: boolean): DateCell {
  const year = from + Math.floor(r() * (to - from + 1));
  const month = 1 + Math.floor(r() * 12);
  const day = 1 + Math.floor(r() * 28);
  const iso = `${year}-${pad2(month)}-${pad2(day)}`;
  const x = r();
  if (partial && x < 0.3) {
    const y = r();
    const text =
      y < 0.35
        ? `??/??/${year}`
        : y < 0.5
          ? `${year}?`
          : y < 0.65
            ? `${pad2(month)}/??/${year}`
            : y < 0.85
              ? `${pick(r, SEASONS)} ${year}`
              : `Q${1 + Math.floor((month - 1) / 3)} ${year}`;
    return { text, day: null };
  }
  if (x < 0.65) return { text: `${MONTHS[month - 1]} ${day}, ${year}`, day: iso };
  if (x < 0.85) return { text: iso, day: iso };
  return { text: `${pad2(month)}/${pad2(day)}/${year}`, day: iso };
}

const noDate: DateCell = { text: "", day: null };

function newSong(t: Tracker, era: Era, opts: { availability?: string; quality?: string } = {}): Song {
  const r = t.random;
  const id = t.nextId++;
  const availability = opts.availability ?? weighted(r, AVAILABILITY);
  const qualities = AVAILABILITY.find((a) => a[0] === availability)?.[2] ?? ["HQ"];
  const quality = opts.quality ?? pick(r, qualities);
  const unavailable = quality === "Not Available";
  const linkCount = unavailable ? 0 : r() < 0.12 ? 0 : r() < 0.8 ? 1 : 2;
  const links = Array.from({ length: linkCount }, (_, k) => `https://files.example.com/${t.slug}/${id}-${k + 1}`);
  const min = 1 + Math.floor(r() * 4);
  return {
    id,
    eraCell: "",
    mark: weighted(r, MARKS),
    title: newTitle(t),
    feat: r() < 0.15 ? `${pick(r, FIRST)} ${pick(r, LAST)}` : null,
    prod: r() < 0.1 ? `${pick(r, FIRST)} ${pick(r, LAST)}` : null,
    version: null,
    notes: r() < 0.3 ? pick(r, NOTE_PHRASES) : "",
    length: unavailable || r() < 0.3 ? "" : `${min}:${pad2(Math.floor(r() * 60))}`,
    fileDate: r() < 0.3 ? dateIn(r, era.from, era.to, true) : noDate,
    leakDate: unavailable || r() < 0.15 ? noDate : dateIn(r, era.from, era.to, true),
    availability,
    quality,
    links,
    linkSplit: r() < 0.6 ? "\n" : ", ",
    linkLabel: r() < 0.5,
  };
}

/** An artist's tracker of `songs` song rows in about `eras` eras, the same for the same seed. */
export function makeTracker(opts: { seed: number; songs: number; eras: number }): Tracker {
  const random = seededRandom(opts.seed);
  const artist = `${pick(random, FIRST)} ${pick(random, LAST)}`;
  const t: Tracker = {
    artist,
    slug: artist.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    updated: "11/20/2026",
    eras: [],
    nextId: 1,
    random,
    usedTitles: new Set(),
  };
  // Era sizes vary (a few songs to over a hundred) and add up to the songs asked for.
  const weights = Array.from({ length: opts.eras }, () => 0.3 + random() * 1.7);
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(3, Math.round((w / sum) * opts.songs)));
  let diff = opts.songs - sizes.reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0; i = (i + 1) % sizes.length) {
    if (diff < 0 && (sizes[i] ?? 0) <= 3) continue;
    sizes[i] = (sizes[i] ?? 0) + Math.sign(diff);
    diff -= Math.sign(diff);
  }
  const eraNames = new Set<string>();
  let year = 2010;
  for (const size of sizes) {
    let name = `${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`;
    while (eraNames.has(name)) name = `${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`;
    eraNames.add(name);
    const from = year;
    const to = Math.min(2026, year + Math.floor(random() * 2));
    year = Math.min(2026, to + (random() < 0.6 ? 0 : 1));
    const era: Era = {
      name,
      story: `${pick(random, ["Recorded", "Written", "Made"])} ${pick(random, ["on tour", "at the home studio", "in the city", "over one winter", "with a new team"])}; ${pick(random, NOTE_PHRASES).toLowerCase()}`,
      from,
      to,
      songs: [],
    };
    for (let i = 0; i < size; i++) era.songs.push(newSong(t, era));
    // Some eras write their name again in the first song's Era cell; most leave every song's cell blank.
    if (random() < 0.15 && era.songs[0]) era.songs[0].eraCell = name;
    // A few songs come in two versions: the same title, labelled [V1] and [V2].
    for (let i = 1; i < era.songs.length; i += 1 + Math.floor(random() * 40)) {
      const [a, b] = [era.songs[i - 1], era.songs[i]];
      if (!a || !b || a.version || b.version || random() < 0.6) continue;
      b.title = a.title;
      a.version = "V1";
      b.version = "V2";
    }
    t.eras.push(era);
  }
  return t;
}

/** Song rows in the tracker. */
export const songCount = (t: Tracker) => t.eras.reduce((n, e) => n + e.songs.length, 0);

function statsCell(era: Era): string {
  const lines: string[] = [];
  for (const [label, values] of STAT_LABELS) {
    const n = era.songs.filter((s) => values.includes(s.availability)).length;
    if (n > 0) lines.push(`${n} ${label}`);
  }
  return lines.join("\n");
}

function nameCell(s: Song): string {
  return [
    s.mark,
    s.title,
    s.feat ? `(feat. ${s.feat})` : "",
    s.prod ? `(prod. ${s.prod})` : "",
    s.version ? `[${s.version}]` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

const HEADER = [
  "Era",
  "Name",
  "Notes",
  "Track Length",
  "File Date",
  "Leak Date",
  "Available Length",
  "Quality",
  "Link(s)",
];

/** A cell of the rendered sheet: text, a typed date, or a link shown as "Link". */
type Cell = string | { date: string } | { text: string; url: string };

/** The tracker tab's rows as cells: title rows, header, then each era header and its songs. */
function rowsOf(t: Tracker, workbook: boolean): Cell[][] {
  const rows: Cell[][] = [
    [`${t.artist} Unreleased Tracker`],
    [`Join the Discord for leaks and news · Last updated ${t.updated}`],
    ["Links are kept for archival purposes. Ask before sharing anything from this sheet."],
    [],
    HEADER,
  ];
  for (const era of t.eras) {
    rows.push([statsCell(era), era.name, era.story, "", `(${era.from} - ${era.to})`, "", "", "", ""]);
    for (const s of era.songs) {
      const date = (d: DateCell): Cell => (workbook && d.day ? { date: d.day } : d.text);
      const linkCell: Cell =
        workbook && s.links.length === 1 && s.linkLabel
          ? { text: "Link", url: s.links[0] as string }
          : s.links.join(s.linkSplit);
      rows.push([
        s.eraCell,
        nameCell(s),
        s.notes,
        s.length,
        date(s.fileDate),
        date(s.leakDate),
        s.availability,
        s.quality,
        linkCell,
      ]);
    }
  }
  return rows;
}

const csvField = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** The tracker as the CSV a "publish to the web" link serves. */
export function trackerCsv(t: Tracker): Buffer {
  const lines = rowsOf(t, false).map((row) => {
    const cells = Array.from({ length: HEADER.length }, (_, i) => row[i] ?? "");
    return cells.map((c) => csvField(typeof c === "string" ? c : "date" in c ? c.date : c.url)).join(",");
  });
  return Buffer.from(`${lines.join("\r\n")}\r\n`, "utf8");
}

/** The tracker as a workbook: the Unreleased tab, an Updates tab and an Info tab (neither lists songs). */
export function trackerXlsx(t: Tracker): Buffer {
  const ws: XLSX.WorkSheet = {};
  const rows = rowsOf(t, true);
  rows.forEach((row, r) => {
    row.forEach((c, col) => {
      if (c === "") return;
      const ref = XLSX.utils.encode_cell({ r, c: col });
      if (typeof c === "string") ws[ref] = { t: "s", v: c };
      else if ("date" in c) ws[ref] = { t: "n", v: excelSerial(c.date), z: "yyyy-mm-dd" };
      else ws[ref] = { t: "s", v: c.text, l: { Target: c.url } };
    });
  });
  ws["!ref"] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: rows.length - 1, c: HEADER.length - 1 } });
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Unreleased");
  XLSX.utils.book_append_sheet(
    wb,
    XLSX.utils.aoa_to_sheet([
      ["Date", "Update"],
      [t.updated, "Sheet reorganised by era"],
      ["11/02/2026", "Added new snippets"],
    ]),
    "Updates",
  );
  XLSX.utils.book_append_sheet(
    wb,
    XLSX.utils.aoa_to_sheet([["Info"], ["Run by the community. Join the Discord for leaks and news."]]),
    "Info",
  );
  // No document properties: the same model gives the same bytes.
  return XLSX.write(wb, { type: "buffer", bookType: "xlsx", compression: true }) as Buffer;
}

function excelSerial(iso: string): number {
  return (Date.parse(`${iso}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

/** Only the announcement row's "Last updated" date moves: the sheet's bytes change, its rows do not. */
export function touchUpdated(t: Tracker, n: number): void {
  t.updated = `11/${pad2(21 + (n % 9))}/2026`;
}

/**
 * Change 10 rows as an editor would in one sitting, none touched before (`used`): 4 availability upgrades (snippet
 * → full, partial or tagged → full, full → OG file), 1 quality upgrade, 2 new songs, 1 rename, 1 removal and 1 notes
 * edit. Renamed and removed rows have their own links, so a rename is told from a removal plus a new song.
 */
export function tenRowChange(t: Tracker, round: number, used: Set<number>): Edit[] {
  const r = seededRandom(hashString(`${t.slug}:${round}`));
  const all = t.eras.flatMap((era) => era.songs.map((s) => ({ era, s })));
  const take = (test: (s: Song) => boolean) => {
    const options = all.filter(({ s }) => !used.has(s.id) && !s.version && test(s));
    const got = options[Math.floor(r() * options.length)];
    if (!got) throw new Error("no row left to edit");
    used.add(got.s.id);
    return got;
  };
  const edits: Edit[] = [];
  const upgrade = (from: string[], to: string, quality?: string) => {
    const { s } = take((x) => from.includes(x.availability));
    edits.push({ kind: "availability upgrade", row: `${s.title}: ${s.availability} → ${to}` });
    s.availability = to;
    if (quality) s.quality = quality;
    if (s.links.length === 0) s.links = [`https://files.example.com/${t.slug}/${s.id}-up${round}`];
  };
  upgrade(["Snippet"], "Full", "CDQ");
  upgrade(["Snippet"], "Full");
  upgrade(["Partial", "Tagged"], "Full");
  upgrade(["Full"], "OG File", "Lossless");
  const q = take((x) => x.availability === "Full" && (x.quality === "LQ" || x.quality === "HQ"));
  edits.push({ kind: "quality upgrade", row: `${q.s.title}: ${q.s.quality} → CDQ` });
  q.s.quality = "CDQ";
  for (const availability of ["Snippet", "Full"]) {
    const era = t.eras[Math.floor(r() * t.eras.length)] as Era;
    const song = newSong(t, era, { availability, quality: availability === "Snippet" ? "LQ" : "HQ" });
    used.add(song.id);
    era.songs.push(song);
    edits.push({ kind: "new song", row: song.title });
  }
  const renamed = take((x) => x.links.length > 0 && !x.eraCell);
  const was = renamed.s.title;
  renamed.s.title = newTitle(t);
  edits.push({ kind: "rename", row: `${was} → ${renamed.s.title}` });
  const removed = take((x) => x.links.length > 0 && !x.eraCell);
  removed.era.songs.splice(removed.era.songs.indexOf(removed.s), 1);
  edits.push({ kind: "removal", row: removed.s.title });
  const noted = take(() => true);
  noted.s.notes = `${noted.s.notes} Confirmed by the engineer in round ${round}.`.trim();
  edits.push({ kind: "notes", row: noted.s.title });
  return edits;
}
