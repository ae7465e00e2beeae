// The demo catalogue beyond the 16 hand-written demo songs: fictional artists, members and a few hundred songs,
// generated deterministically from word lists (the same catalogue on every machine and every start), so a fresh
// install looks like a community that has been busy for a year. No real artist names: names are random pairs
// of made-up and everyday words.
import {
  type Availability,
  GENRES,
  type Genre,
  type LeakDetails,
  NO_LEAK_DETAILS,
  type Quality,
  REPORT_REASONS,
  type VersionKind,
} from "@unheard/shared";
import { nameKey } from "../lib/text.js";
import { DEMO_FANS, DEMO_SONGS, type DemoSong } from "./demo-data.js";
import { hashString, rng } from "./synth.js";

/** Songs a full demo has, the 16 demo songs included. */
export const DEMO_SONG_TOTAL = 300;
/** Members who vote and favourite (the 6 demo fans among them). */
export const DEMO_MEMBER_COUNT = 40;
/** Artists credited across the catalogue (the demo songs' 8 among them). */
export const DEMO_ARTIST_COUNT = 60;

export type DemoArtist = {
  name: string;
  genre: Genre;
  /** placeholder: created by an upload, nobody has claimed it; verified: an artist's own account, verified by an admin. */
  kind: "placeholder" | "verified";
  bio: string;
  instagram: string | null;
  website: string | null;
};

export type DemoMember = { username: string; role: "user" | "verified_contributor"; joinedDaysAgo: number };

/** A catalogue song: a demo song plus who submitted it, when, and how its votes and likes are made up. */
export type CatalogueSong = DemoSong & {
  /** Member username; undefined = the demo listener account. */
  submitter: string | undefined;
  createdHoursAgo: number;
  upvotes: number;
  downvotes: number;
  /** Of `favorites`, how many fall in the last 7 days (Trending This Week). */
  weekFavorites: number;
};

export type DemoReport = { song: string; reporter: string; reason: (typeof REPORT_REASONS)[number]; details: string };
export type DemoSuggestion = {
  song: string;
  by: string;
  change: "releaseDate" | "feature" | "genre" | "title";
  reason: string;
  /** Reviewed already (rejected by an admin), or still waiting in the queue. */
  status: "pending" | "rejected";
};

export type Catalogue = {
  artists: DemoArtist[];
  members: DemoMember[];
  songs: CatalogueSong[];
  reports: DemoReport[];
  processedReports: (DemoReport & { status: "resolved" | "rejected" })[];
  suggestions: DemoSuggestion[];
  /** follower username -> artist names. */
  follows: Map<string, string[]>;
  /** Song title -> its leak details (demo and catalogue songs; about two in three have some). */
  leaks: Map<string, LeakDetails>;
  /** Song title -> the title of the song it is a version of, and how. */
  versions: Map<string, { of: string; kind: VersionKind }>;
};

const ERAS = [
  "Basement Tapes",
  "Tour Sessions",
  "Winter Sessions",
  "Debut Era",
  "Mixtape Era",
  "Studio B",
  "Demo Vault",
];
const LEAK_NOTES = [
  "Surfaced in a group buy.",
  "Played once on a livestream; this is a recording of that.",
  "From a studio session dump, not the final mix.",
  "Previewed on social media, then taken down.",
  "Leaked alongside the rest of the session files.",
];
const VERSION_SUFFIX: Record<VersionKind, string> = {
  snippet: "Snippet",
  remix: "Remix",
  alternate: "Alt Version",
  official: "Official",
};

/**
 * Leak details for a song, from its own seeded generator (so they never disturb the catalogue's): about two in
 * three songs get some, a snippet-heavy spread of availability, producers drawn from the catalogue's artists.
 */
function leakFor(title: string, artists: readonly string[], daysAgoMax: number): LeakDetails | undefined {
  const r = rng(hashString(`leak ${title}`));
  if (r() < 0.35) return undefined;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length) % list.length] as T;
  const producers = r() < 0.7 ? [...new Set([pick(artists), ...(r() < 0.3 ? [pick(artists)] : [])])] : [];
  const leaked = new Date(Date.UTC(2026, 0, 1) - Math.floor(r() * daysAgoMax) * 864e5).toISOString().slice(0, 10);
  return {
    ...NO_LEAK_DETAILS,
    era: r() < 0.6 ? pick(ERAS) : null,
    producers,
    features: [],
    leakDate: r() < 0.7 ? leaked : null,
    // The values a song with audio can have (not rumoured, confirmed or "not available").
    availability:
      r() < 0.9 ? pick(["snippet", "partial", "full", "og_file", "snippet", "full"] as Availability[]) : null,
    quality: r() < 0.8 ? pick(["low", "high", "lossless", "recording"] as Quality[]) : null,
    notes: r() < 0.25 ? pick(LEAK_NOTES) : null,
  };
}

// Words of the demo songs' own titles stay out, so searching for a demo song finds it first.
const RESERVED = new Set(
  DEMO_SONGS.flatMap((s) => s.title.toLowerCase().split(/\s+/)).filter((w) => !/^\d+$/.test(w) && w.length > 2),
);
const clean = (words: string[]) => words.filter((w) => !RESERVED.has(w.toLowerCase()));

const ADJECTIVES = clean(
  "Velvet Copper Hollow Amber Silver Broken Golden Restless Quiet Electric Crimson Faded Wild Lonely Sugar Violet Heavy Slow Distant Burning Frozen Tender Wicked Lucky Borrowed Secret Endless Stolen Sleepless Ivory Rusty Lucid Cinder Marble Gentle Feral Honey Sunday Northern Rosewater Chrome Lavender Bitter Sapphire Crooked Hazy Sunlit Weightless Lilac Saffron Gravel Indigo Scarlet Paperback Neverending".split(
    " ",
  ),
);
const NOUNS = clean(
  "Weather Skies Embers Harbor Lights Rooftops Fever Ocean Echoes Shadows Mirrors Satellite Highway Summer Winter Thunder Daydream Heartbeat Gravity Lullaby Parade Monsoon Mercury Postcard Avenue Carousel Voltage Wildfire Diamonds Riverbed Motel Cassette Spiral Comet Meadow Frequency Skyline Tangerine Jukebox Compass Tornado Runway Blueprint Hallway Chandelier Paradise Revolver Sunset Afterglow Tremor Honeycomb Switchblade Undertow Firefly Pavement Lighthouse Greyhound Saturday Telescope Wishbone Overpass Aquarium Billboard Snowglobe".split(
    " ",
  ),
);
const VERBS =
  "Chasing Falling Running Drowning Dancing Waiting Driving Counting Losing Calling Holding Breaking Floating Fading Catching Leaving Dreaming".split(
    " ",
  );
const PLACES =
  "Tulsa Lisbon Osaka Memphis Marseille Detroit Reno Havana Oslo Cairo Atlanta Brooklyn Tbilisi Nairobi Valparaiso Glasgow".split(
    " ",
  );
const TAGS = [
  " (Demo)",
  " (Snippet)",
  " (Alt Version)",
  " Pt. 2",
  " (Live Session)",
  " (Interlude)",
  " (V2)",
  " (Rough Mix)",
];

const FIRST =
  "Juno Ezra Ines Rafe Selah Theo Wren Cleo Ansel Marlo Odette Silas Vera Nico Isolde Calla Dorian Esme Lazlo Maren Quinn Soren Tamsin Elio Rhea Otis Zadie Caspian Ione Bastian Liora Emrys Noor Ivo".split(
    " ",
  );
const LAST =
  "Ashgrove Morrow Kestrel Winslow Varga Lindqvist Castellan Quill Harrowgate Pennock Delrow Ambry Thistlewood Okonkwo Marchetti Vasquez Holloway Fairweather Brandt Sorensen Achterberg Lowell Calder Renwick Dunmore Halvorsen".split(
    " ",
  );
const PREFIX = "Kae Zo Lu Mira Ny Ora Vel Sai Tavi Eko Rin Ilo Ama Qua Xen Yuri".split(" ");
const SUFFIX = "lune vex ra tide nova rune ko sol vane mire dae lith".split(" ");
const BAND = clean(
  "Engines Ferns Harbors Cassettes Violets Moths Comets Orchards Pylons Glaciers Lanterns Owls Parakeets Switchbacks Quarries Weathervanes".split(
    " ",
  ),
);
const BAND_ADJ = clean(
  "Velvet Hollow Amber Rusty Electric Crooked Marble Sunday Northern Faded Lucky Chrome".split(" "),
);
const HANDLE_A = "velvet lofi night vinyl bass echo tape synth crate drum groove beat neon fuzz hook demo".split(" ");
const HANDLE_B = "fox owl rider head digger kid ghost wave junkie hound moth cat fiend scout lover".split(" ");
const DETAILS: Record<string, string[]> = {
  wrong_artist: [
    "This is credited to the wrong artist, it's from the other camp.",
    "Wrong artist: heard this on a live stream by someone else.",
  ],
  fake_leak: ["This is a fan-made AI track, not a real leak.", "Fake: the vocals are from an old interview."],
  duplicate: ["Same song as another upload with a different title.", "Duplicate of an earlier upload."],
  wrong_title: [
    "The title is wrong, the snippet calls it something else.",
    "Title has a typo compared to the tracklist.",
  ],
  copyright: ["The label asked for this to come down.", "Full song uploaded, not a snippet."],
  other: ["Audio is clipped in the second half.", "Mislabelled genre and release date."],
};
const SUGGESTION_REASONS: Record<DemoSuggestion["change"], string> = {
  releaseDate: "The artist announced the date on their story last night.",
  feature: "There's a feature on this one, the second verse isn't the main artist.",
  genre: "This is more of a pop record than what it's filed under.",
  title: "The tracklist has a slightly different title.",
};
const BIOS = [
  "Making songs in a bedroom studio and releasing them when they're ready.",
  "Writer, producer, occasional singer. Unreleased stuff leaks faster than I can finish it.",
  "Touring most of the year; the new record is almost done.",
  "Independent artist. Every snippet here is a work in progress.",
];

/** The generated catalogue: deterministic, `songCount` songs besides the demo songs. */
export function buildCatalogue(songCount: number): Catalogue {
  const r = rng(hashString("unheard demo catalogue v1"));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length) % list.length] as T;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

  // Artists: the demo songs' own, then generated ones, each with a home genre.
  const artists: DemoArtist[] = [];
  const taken = new Set<string>();
  const addArtist = (name: string, genre: Genre, kind: DemoArtist["kind"]) => {
    const key = nameKey(name);
    if (taken.has(key)) return false;
    taken.add(key);
    const slug = key.replace(/[^a-z0-9]+/g, "");
    artists.push({
      name,
      genre,
      kind,
      bio: kind === "verified" ? pick(BIOS) : `Music by ${name}`,
      instagram: kind === "verified" ? slug : null,
      website: kind === "verified" ? `https://${slug}.example` : null,
    });
    return true;
  };
  // Demo artists play the genre of the songs they lead (or of the first they are featured on).
  const ordered = [...DEMO_SONGS].sort((a, b) => a.artists.length - b.artists.length);
  for (const s of ordered) for (const name of s.artists) addArtist(name, s.genre, "placeholder");
  // Two of the demo artists have claimed and verified their profiles.
  for (const a of artists) if (a.name === "Nova Reyes" || a.name === "Mara Vance") a.kind = "verified";
  const namer: Record<Genre, () => string> = {
    Electronic: () => (r() < 0.5 ? `DJ ${pick(PREFIX)}${pick(SUFFIX)}` : `${pick(PREFIX)}${pick(SUFFIX)}`),
    Rap: () => (r() < 0.6 ? `${pick(["Lil", "Yung"])} ${pick(PREFIX)}${pick(SUFFIX)}` : `${pick(FIRST)} ${pick(LAST)}`),
    Pop: () => (r() < 0.7 ? `${pick(FIRST)} ${pick(LAST)}` : `${pick(PREFIX)}${pick(SUFFIX)}`),
    Country: () => `${pick(FIRST)} ${pick(LAST)}`,
    Rock: () => `The ${pick(BAND_ADJ)} ${pick(BAND)}`,
    Other: () =>
      r() < 0.5
        ? `${pick(PREFIX)}${pick(SUFFIX)} ${pick(["Collective", "Ensemble", "Trio"])}`
        : `${pick(PREFIX)}${pick(SUFFIX)}`,
  };
  for (let i = 0; artists.length < DEMO_ARTIST_COUNT && i < 10_000; i++) {
    const genre = GENRES[artists.length % GENRES.length] as Genre;
    addArtist(namer[genre](), genre, artists.length % 5 === 0 ? "verified" : "placeholder");
  }

  // Members: the demo fans, then generated handles; a few are verified contributors (they suggest edits).
  const members: DemoMember[] = DEMO_FANS.map((username, i) => ({
    username,
    role: "user",
    joinedDaysAgo: 300 - i * 7,
  }));
  const handles = new Set<string>(DEMO_FANS);
  while (members.length < DEMO_MEMBER_COUNT) {
    const h = `${pick(HANDLE_A)}${r() < 0.3 ? "_" : ""}${pick(HANDLE_B)}${r() < 0.3 ? int(2, 99) : ""}`;
    if (handles.has(h) || taken.has(h)) continue;
    handles.add(h);
    members.push({
      username: h,
      role: members.length % 7 === 3 ? "verified_contributor" : "user",
      joinedDaysAgo: int(20, 380),
    });
  }
  const contributors = members.filter((m) => m.role === "verified_contributor").map((m) => m.username);

  // Songs: popular artists have many, most have a few (a Zipf-like spread).
  const weights = artists.map((_, i) => 1 / (1 + i * 0.15) + (i < 8 ? 0.3 : 0));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const weightedArtist = () => {
    let x = r() * totalWeight;
    for (let i = 0; i < artists.length; i++) {
      x -= weights[i] ?? 0;
      if (x <= 0) return artists[i] as DemoArtist;
    }
    return artists[artists.length - 1] as DemoArtist;
  };
  const titles = new Set(DEMO_SONGS.map((s) => nameKey(s.title)));
  const makeTitle = () => {
    for (;;) {
      const p = r();
      let t =
        p < 0.35
          ? `${pick(ADJECTIVES)} ${pick(NOUNS)}`
          : p < 0.55
            ? `${pick(VERBS)} ${pick(NOUNS)}`
            : p < 0.68
              ? `${pick(NOUNS)} in ${pick(PLACES)}`
              : p < 0.8
                ? `The ${pick(NOUNS)}`
                : p < 0.9
                  ? `${pick(NOUNS)} & ${pick(NOUNS)}`
                  : `${pick(NOUNS)} ${int(2, 99)}`;
      if (r() < 0.12) t += pick(TAGS);
      const key = nameKey(t);
      if (!titles.has(key)) {
        titles.add(key);
        return t;
      }
    }
  };

  const songs: CatalogueSong[] = [];
  // Pending songs cover every net vote count from -3 to 2; the rest are verified (net 3 and up).
  const pendingNets = [0, 1, 2, -1, 0, 1, 2, -2, 0, 1, -3, 2];
  let hot = 0;
  for (let i = 0; i < songCount; i++) {
    // Every artist leads at least one song; then popularity decides.
    const artist = i < artists.length ? (artists[(i * 37) % artists.length] as DemoArtist) : weightedArtist();
    const names = [artist.name];
    if (r() < 0.15) {
      const feat = weightedArtist();
      if (feat.name !== artist.name) names.push(feat.name);
    }
    const genre = r() < 0.78 ? artist.genre : pick(GENRES);
    const rel = r();
    const releaseInDays = rel < 0.28 ? -int(1, 500) : rel < 0.36 ? int(0, 7) : rel < 0.62 ? int(8, 240) : undefined;
    const pending = i % 5 === 2;
    let upvotes: number;
    let downvotes: number;
    if (pending) {
      const net = pendingNets[Math.floor(i / 5) % pendingNets.length] ?? 0;
      downvotes = Math.max(int(0, 3), -net);
      upvotes = net + downvotes;
    } else {
      downvotes = r() < 0.6 ? 0 : int(1, 4);
      upvotes = downvotes + 3 + Math.floor(r() ** 2 * 22);
    }
    // Likes: verified songs are liked (a few a lot), pending ones hardly.
    const favorites = pending ? int(0, 2) : Math.min(34, Math.floor(r() ** 2.2 * 30) + int(0, 3));
    let weekFavorites = 0;
    if (!pending && favorites > 0 && r() < 0.4) {
      // At most a dozen catalogue songs rival the demo songs this week: those stay on Trending's first page.
      const big = hot < 10 && r() < 0.2;
      if (big) hot++;
      weekFavorites = Math.min(favorites, big ? int(6, 12) : int(1, 4));
    }
    songs.push({
      title: makeTitle(),
      artists: names,
      genre,
      ...(releaseInDays === undefined ? {} : { releaseInDays }),
      votes: upvotes - downvotes,
      favorites,
      submitter: r() < 0.08 ? undefined : pick(members).username,
      // Older than every demo song (those are from the last two weeks), spread over the year before.
      createdHoursAgo: 24 * 15 + (i / Math.max(1, songCount)) * 24 * 380 + r() * 20,
      upvotes,
      downvotes,
      weekFavorites,
    });
  }

  // Versions (issue 16): about one catalogue song in twelve is a snippet, remix or alternate version of an
  // earlier song by the same lead artist, titled after it. No random draw here: the rest stays as it was.
  const versions = new Map<string, { of: string; kind: VersionKind }>();
  const used = new Set(songs.map((s) => s.title));
  const kinds: VersionKind[] = ["snippet", "remix", "snippet", "alternate", "remix", "official"];
  for (let i = 9; i < songs.length; i += 12) {
    const song = songs[i] as CatalogueSong;
    // A parent without a tag of its own ("(Demo)", "Pt. 2"), so the version's title reads well.
    const eligible = (p: CatalogueSong) => p !== song && !versions.has(p.title) && !/[()]|Pt\. /.test(p.title);
    const earlier = songs.slice(0, i).filter(eligible);
    const own = earlier.find((p) => p.artists[0] === song.artists[0]);
    // No earlier song of its own artist (a small catalogue): a remix of the nearest one, by this artist.
    const parent = own ?? earlier[earlier.length - 1];
    if (!parent) continue;
    const kind = own ? (kinds[Math.floor(i / 12) % kinds.length] ?? "snippet") : "remix";
    const title = own
      ? `${parent.title} (${VERSION_SUFFIX[kind]})`
      : `${parent.title} (${song.artists[0] ?? ""} Remix)`;
    if (used.has(title)) continue;
    used.delete(song.title);
    used.add(title);
    song.title = title;
    versions.set(title, { of: parent.title, kind });
  }
  const leaks = new Map<string, LeakDetails>();
  const names = artists.map((a) => a.name);
  for (const s of [...DEMO_SONGS, ...songs]) {
    const leak = leakFor(s.title, names, 900);
    if (leak) leaks.set(s.title, leak);
  }

  // Moderation queues: open reports and edit suggestions, and some already handled.
  const verifiedSongs = songs.filter((s) => s.upvotes - s.downvotes >= 3);
  const reports: DemoReport[] = [];
  const processedReports: Catalogue["processedReports"] = [];
  // One open report per member and song (as the app allows).
  const filed = new Set<string>();
  for (let i = 0; i < 20 && verifiedSongs.length > 0; i++) {
    const song = verifiedSongs[(i * 7 + 3) % verifiedSongs.length] as CatalogueSong;
    let k = Math.floor(r() * members.length);
    let reporter = members[k]?.username ?? "";
    for (
      let tries = 0;
      (reporter === song.submitter || filed.has(`${song.title}|${reporter}`)) && tries < members.length;
      tries++
    )
      reporter = members[++k % members.length]?.username ?? "";
    if (filed.has(`${song.title}|${reporter}`)) continue;
    filed.add(`${song.title}|${reporter}`);
    const reason = pick(REPORT_REASONS);
    const report = { song: song.title, reporter, reason, details: pick(DETAILS[reason] ?? [""]) };
    if (i < 14) reports.push(report);
    else processedReports.push({ ...report, status: i % 2 ? "resolved" : "rejected" });
  }
  const suggestions: DemoSuggestion[] = [];
  const changes: DemoSuggestion["change"][] = ["releaseDate", "feature", "genre", "title"];
  for (let i = 0; i < 11 && verifiedSongs.length > 0; i++) {
    const song = verifiedSongs[(i * 11 + 5) % verifiedSongs.length] as CatalogueSong;
    const change = changes[i % changes.length] as DemoSuggestion["change"];
    suggestions.push({
      song: song.title,
      by: contributors[i % contributors.length] ?? "nightowl",
      change,
      reason: SUGGESTION_REASONS[change],
      status: i < 8 ? "pending" : "rejected",
    });
  }

  // Follows: every member follows a few artists, the popular ones more often.
  const follows = new Map<string, string[]>();
  for (const m of members) {
    const n = int(1, 7);
    const list = new Set<string>();
    for (let k = 0; k < n; k++) list.add(weightedArtist().name);
    follows.set(m.username, [...list]);
  }
  return { artists, members, songs, reports, processedReports, suggestions, follows, leaks, versions };
}
