// Queries for the search benchmark, made from the catalogue as it reads in the database and nothing else: this
// file imports no server code, so the relevance it measures does not follow the engine's own idea of a match.
// Each query names the song it is after. A query is kept only when it points at a few songs (at most
// MAX_MATCHES titles by distinct artists answer it), so every kept query has a right answer an engine can rank
// in the top 5; titles shared by dozens of songs ("Love", "Fever") make queries of no kind here.
import { createRandom, type Random, shuffled } from "./random.js";

/** A song as a visitor sees it: its title and credited artists in order. */
export type CatalogueSong = { id: string; title: string; artists: { id: string; name: string }[] };

export const QUERY_KINDS = ["exact", "typo", "partial", "title-artist", "featured", "accents"] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

/** What each kind is, in the tables. */
export const KIND_LABELS: Record<QueryKind, string> = {
  exact: "exact title",
  typo: "one typo per word (4+ letters)",
  partial: "partial last word",
  "title-artist": "first title word(s) + artist",
  featured: "featured artist + title word(s)",
  accents: "accents dropped",
};

/**
 * A query and the song it is after (`label`: its title and artists); `accepted` also holds the song's duplicates
 * (same title, same artists).
 */
export type Query = { kind: QueryKind; q: string; expected: string; label: string; accepted: string[] };

/** Most songs (distinct title and artists) that may answer a kept query. */
export const MAX_MATCHES = 3;

/** Lower-case, accents and apostrophes dropped, other punctuation a space: how a person compares names. */
export function fold(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[øœæßłđðþı]/g, (c) => FOLD_LETTERS[c] ?? c)
    .replace(/['’]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
// Letters NFKD does not take apart but people type without their stroke.
const FOLD_LETTERS: Record<string, string> = {
  ø: "o",
  œ: "oe",
  æ: "ae",
  ß: "ss",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

/** The title without bracketed leak tags and features: "Lonely Nights (Demo) (feat. X)" -> "Lonely Nights". */
export function baseTitle(title: string): string {
  return title
    .replace(/\s*[([][^)\]]*[)\]]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The name in "(feat. X)", if the title has one. */
export function featuredInTitle(title: string): string | undefined {
  return /\((?:feat\.|ft\.|featuring) ([^)]+)\)/i.exec(title)?.[1]?.trim();
}

const ASCII = /^[\x20-\x7e]*$/;
const KEYBOARD: Record<string, string> = {
  a: "qwsz",
  b: "vghn",
  c: "xdfv",
  d: "serfcx",
  e: "wsdr",
  f: "drtgvc",
  g: "ftyhbv",
  h: "gyujnb",
  i: "ujko",
  j: "huikmn",
  k: "jiolm",
  l: "kop",
  m: "njk",
  n: "bhjm",
  o: "iklp",
  p: "ol",
  q: "wa",
  r: "edft",
  s: "awedxz",
  t: "rfgy",
  u: "yhji",
  v: "cfgb",
  w: "qase",
  x: "zsdc",
  y: "tghu",
  z: "asx",
};

/**
 * One typo in a lower-case word: a letter replaced by a key next to it, dropped, one added (a neighbour key or
 * the letter doubled) or two neighbours swapped. The first letter stays, as it mostly does when people mistype.
 */
export function typo(word: string, rand: Random): string {
  for (let tries = 0; tries < 20; tries++) {
    const at = 1 + rand.int(word.length - 1);
    const c = word[at] ?? "";
    const near = KEYBOARD[c] ?? "e";
    const key = near[rand.int(near.length)] ?? "e";
    const op = rand.int(4);
    const out =
      op === 0
        ? word.slice(0, at) + key + word.slice(at + 1)
        : op === 1
          ? word.slice(0, at) + word.slice(at + 1)
          : op === 2
            ? word.slice(0, at + 1) + (rand.next() < 0.3 ? c : key) + word.slice(at + 1)
            : at + 1 < word.length
              ? word.slice(0, at) + (word[at + 1] ?? "") + c + word.slice(at + 2)
              : word;
    if (out !== word) return out;
  }
  return word;
}

/** Lookups over the catalogue that decide how many songs a query points at. */
export type CatalogueIndex = {
  songs: CatalogueSong[];
  /** Folded base title -> songs. */
  byTitle: Map<string, CatalogueSong[]>;
  /** Folded base titles, sorted, with their group keys, for prefix counts. */
  sorted: { title: string; group: string }[];
  /** Folded name -> songs credited to it or featuring it in their title. */
  byName: Map<string, CatalogueSong[]>;
  /** A song's folded base title, worked out once. */
  titleOf: (s: CatalogueSong) => string;
  group: (s: CatalogueSong) => string;
};

/** Index the visible catalogue for the query generator. */
export function indexCatalogue(songs: CatalogueSong[]): CatalogueIndex {
  const titles = new Map<CatalogueSong, string>();
  const titleOf = (s: CatalogueSong) => {
    let t = titles.get(s);
    if (t === undefined) {
      t = fold(baseTitle(s.title));
      titles.set(s, t);
    }
    return t;
  };
  const groups = new Map<CatalogueSong, string>();
  const group = (s: CatalogueSong) => {
    let g = groups.get(s);
    if (g === undefined) {
      g = `${titleOf(s)}|${s.artists
        .map((a) => a.id)
        .sort()
        .join(",")}`;
      groups.set(s, g);
    }
    return g;
  };
  const byTitle = new Map<string, CatalogueSong[]>();
  const byName = new Map<string, CatalogueSong[]>();
  const add = (map: Map<string, CatalogueSong[]>, key: string, s: CatalogueSong) => {
    const list = map.get(key);
    if (list) list.push(s);
    else map.set(key, [s]);
  };
  for (const s of songs) {
    add(byTitle, titleOf(s), s);
    const names = new Set(s.artists.map((a) => fold(a.name)));
    const feat = featuredInTitle(s.title);
    if (feat) names.add(fold(feat));
    for (const n of names) add(byName, n, s);
  }
  const sorted = songs
    .map((s) => ({ title: titleOf(s), group: group(s) }))
    .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return { songs, byTitle, sorted, byName, titleOf, group };
}

/** Distinct groups among `songs`, stopping once past the limit. */
function countGroups(index: CatalogueIndex, songs: Iterable<CatalogueSong>): number {
  const seen = new Set<string>();
  for (const s of songs) {
    seen.add(index.group(s));
    if (seen.size > MAX_MATCHES) break;
  }
  return seen.size;
}

/** Songs whose folded base title starts with `prefix` (binary search over the sorted titles). */
function countPrefix(index: CatalogueIndex, prefix: string): number {
  let lo = 0;
  let hi = index.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((index.sorted[mid]?.title ?? "") < prefix) lo = mid + 1;
    else hi = mid;
  }
  const seen = new Set<string>();
  for (let i = lo; i < index.sorted.length; i++) {
    const e = index.sorted[i];
    if (!e?.title.startsWith(prefix)) break;
    seen.add(e.group);
    if (seen.size > MAX_MATCHES) break;
  }
  return seen.size;
}

/** The first title word, or the first two when the first is short ("the", "i"): what people type first. */
function leadingWords(base: string): string {
  const words = base.split(" ");
  const first = words[0] ?? "";
  return first.replace(/[^a-z]/gi, "").length >= 4 || words.length < 2 ? first : `${first} ${words[1]}`;
}

/** Songs known by `name` whose title starts with the words `lead`. */
function countNamed(index: CatalogueIndex, name: string, lead: string): number {
  const f = fold(lead);
  const all = index.byName.get(fold(name)) ?? [];
  function* matching() {
    for (const s of all) {
      const t = index.titleOf(s);
      if (t === f || t.startsWith(`${f} `)) yield s;
    }
  }
  return countGroups(index, matching());
}

const hasAccent = (s: string) => !ASCII.test(s);

/** One query of `kind` for `song`, or undefined when the song has none (or it would point at too many songs). */
export function queryFor(
  index: CatalogueIndex,
  kind: QueryKind,
  song: CatalogueSong,
  rand: Random,
  opts: { identifying: boolean } = { identifying: true },
): string | undefined {
  const base = baseTitle(song.title);
  const primary = song.artists[0]?.name ?? "";
  // Counting is the costly part (a big artist has tens of thousands of songs): only when it decides.
  const few = (count: () => number) => {
    if (!opts.identifying) return true;
    const n = count();
    return n >= 1 && n <= MAX_MATCHES;
  };
  const titleGroups = () => countGroups(index, index.byTitle.get(fold(base)) ?? []);
  if (!base) return undefined;
  // Load wants many distinct queries of a kind: then how many title words and which comes first vary.
  const words = base.split(" ");
  const lead = opts.identifying ? leadingWords(base) : words.slice(0, 1 + rand.int(words.length)).join(" ");
  const swap = !opts.identifying && rand.next() < 0.5;
  const pair = (first: string, second: string) => (swap ? `${second} ${first}` : `${first} ${second}`);
  switch (kind) {
    case "exact":
      return few(titleGroups) ? base : undefined;
    case "typo": {
      if (!ASCII.test(base)) return undefined;
      const words = base.toLowerCase().split(" ");
      if (!words.some((w) => /^[a-z]{4,}$/.test(w))) return undefined;
      const q = words.map((w) => (/^[a-z]{4,}$/.test(w) ? typo(w, rand) : w)).join(" ");
      // A typo that spells another title is a different question.
      if (opts.identifying && index.byTitle.has(fold(q))) return undefined;
      return few(titleGroups) ? q : undefined;
    }
    case "partial": {
      if (!ASCII.test(base)) return undefined;
      const words = base.toLowerCase().split(" ");
      const last = words[words.length - 1] ?? "";
      if (words.length < 2 || !/^[a-z]{3,}$/.test(last)) return undefined;
      // Cut inside the last word: at least 2 of its letters typed, at least one still to come.
      const keep = 2 + rand.int(last.length - 2);
      const q = [...words.slice(0, -1), last.slice(0, keep)].join(" ");
      return few(() => countPrefix(index, fold(q))) ? q : undefined;
    }
    case "title-artist": {
      if (!primary || !ASCII.test(lead) || !ASCII.test(primary)) return undefined;
      return few(() => countNamed(index, primary, lead)) ? pair(lead, primary).toLowerCase() : undefined;
    }
    case "featured": {
      const guest = song.artists[1]?.name ?? featuredInTitle(song.title);
      if (!guest || !ASCII.test(guest) || !ASCII.test(lead)) return undefined;
      return few(() => countNamed(index, guest, lead)) ? pair(guest, lead).toLowerCase() : undefined;
    }
    case "accents": {
      // The title alone when it names the song; else its first word(s) and the artist ("cafe zoe kane").
      if (hasAccent(base) && (swap || opts.identifying) && few(titleGroups)) return fold(base);
      const typed = pair(lead, primary);
      // Only when an accent was in what is typed.
      if (!primary || !hasAccent(typed)) return undefined;
      return few(() => countNamed(index, primary, lead)) ? fold(typed) : undefined;
    }
  }
}

/** Songs with the same title (tags aside) and the same artists as `song`, itself included. */
function acceptedFor(index: CatalogueIndex, song: CatalogueSong): string[] {
  const g = index.group(song);
  return (index.byTitle.get(index.titleOf(song)) ?? []).filter((s) => index.group(s) === g).map((s) => s.id);
}

/**
 * `perKind` identifying queries of each kind over distinct songs, seeded; fewer when the catalogue has not that
 * many songs a kind applies to (accents, features).
 */
export function relevanceQueries(index: CatalogueIndex, perKind: number, seed: number): Query[] {
  const out: Query[] = [];
  for (const [k, kind] of QUERY_KINDS.entries()) {
    const rand = createRandom(seed + k);
    const seen = new Set<string>();
    const order = sample(index.songs, Math.min(index.songs.length, perKind * 400), rand);
    for (const song of order) {
      if (seen.size >= perKind) break;
      const q = queryFor(index, kind, song, rand);
      if (!q || seen.has(q)) continue;
      seen.add(q);
      const label = `${song.title} — ${song.artists.map((a) => a.name).join(", ")}`;
      out.push({ kind, q, expected: song.id, label, accepted: acceptedFor(index, song) });
    }
  }
  return out;
}

/**
 * Up to `want` distinct queries of `kinds` for load, not required to point at few songs and none of `exclude`
 * (the relevance queries, whose answers the server may still hold).
 */
export function loadQueries(
  index: CatalogueIndex,
  kinds: readonly QueryKind[],
  want: number,
  seed: number,
  exclude: Set<string>,
): string[] {
  const rand = createRandom(seed);
  const seen = new Set<string>();
  // A few passes over the songs: typos and cuts come out differently each time.
  for (let pass = 0; pass < 8 && seen.size < want; pass++)
    for (const song of sample(index.songs, index.songs.length, rand)) {
      if (seen.size >= want) break;
      const kind = kinds[rand.int(kinds.length)] ?? "typo";
      const q = queryFor(index, kind, song, rand, { identifying: false });
      if (q && !exclude.has(q)) seen.add(q);
    }
  return shuffled([...seen], rand);
}

/** Up to `want` distinct prefixes as typed into the search box: a title cut after 3+ characters, or a title and artist. */
export function suggestPrefixes(index: CatalogueIndex, want: number, seed: number, exclude: Set<string>): string[] {
  const rand = createRandom(seed);
  const seen = new Set<string>();
  for (let pass = 0; pass < 8 && seen.size < want; pass++)
    for (const song of sample(index.songs, index.songs.length, rand)) {
      if (seen.size >= want) break;
      const base = baseTitle(song.title).toLowerCase();
      const full = rand.next() < 0.5 ? `${base} ${song.artists[0]?.name.toLowerCase() ?? ""}`.trim() : base;
      if (full.length < 3) continue;
      const q = full.slice(0, 3 + rand.int(full.length - 2)).trim();
      if (q.length >= 3 && !exclude.has(q)) seen.add(q);
    }
  return shuffled([...seen], rand);
}

/** `n` items drawn without repetition (a partial Fisher-Yates over a copy). */
function sample<T>(items: readonly T[], n: number, rand: Random): T[] {
  const copy = [...items];
  const count = Math.min(n, copy.length);
  for (let i = 0; i < count; i++) {
    const j = i + rand.int(copy.length - i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, count);
}
