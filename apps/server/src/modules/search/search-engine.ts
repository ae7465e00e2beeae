import type { Database } from "../../db/database.js";
import { type AppEvent, countsOnly } from "../../lib/events.js";
import { searchNormalize } from "../../lib/search-text.js";
import { names } from "../songs/leak-details.js";
import { compareHits, type IndexDoc, type IndexHit, MAX_QUERY_WORDS, SearchIndex, wordsOf } from "./search-index.js";

/** A song as search holds it: what it is found by and what ranks it. */
type SongEntry = {
  id: string;
  title: string;
  era: string | null;
  /** Other names of the song (issue 27): found like the title, in a field of their own. */
  aliases: string[];
  popularity: number;
  versionOf: string | null;
};

/** A song's credit: its artist, in credit order. */
type Credit = { song_id: string; artist_id: string; name: string };

/** One song found: its id, and what the order rests on. */
export type SongHit = { id: string; hit: IndexHit };

/** Bracketed parts of a title: tags, not the title proper. */
const TITLE_TAGS = /[([][^)\]]*[)\]]/g;
/** Events that touch many songs at once reload them in slices of this many ids. */
const RELOAD_SLICE = 500;
/** At most this many times the artists wanted are read from the index to find enough with a public song. */
const MAX_ARTIST_READ = 256;

/**
 * The search engine of one process (decision 024): every public song (verified, not hidden) and every artist
 * (found only while credited on a public song) in two in-memory indexes, built from the database on first use and kept in step by the song events (onEvent),
 * which cross instances on PostgreSQL (LISTEN/NOTIFY), so each instance's index follows every write.
 */
export function createSearchEngine(deps: { database: Database }) {
  const { db } = deps.database;
  let songs = new SearchIndex();
  const artists = new SearchIndex();
  /** Songs changed while a compacting rebuild runs, applied to the new index before it takes over. */
  let changedDuringRebuild: Set<string> | null = null;
  const entries = new Map<string, SongEntry>();
  const creditsOf = new Map<string, Credit[]>();
  /** Artist id -> name and the number of public songs crediting it (the artist's rank). */
  const artistInfo = new Map<string, { name: string; tracks: number; verified: boolean }>();
  let ready: Promise<void> | null = null;
  /** Songs changed while the index was being built: reloaded once it is. */
  const pendingDuringBuild = new Set<string>();
  let building = false;
  const queued = new Set<string>();
  /** Event work in order (reads of changed songs and artists); a search waits for it, so it sees every change. */
  let work: Promise<void> = Promise.resolve();
  const later = (task: () => Promise<void>): Promise<void> => {
    const run = work.then(task);
    work = run.catch(() => undefined);
    return run;
  };

  const songDoc = (e: SongEntry, credits: Credit[]): IndexDoc => {
    // Trackers tag titles in brackets ("(feat. X)", "(Demo)", "[V2]"): found, but not part of the title proper,
    // so "Vetasa" is the whole title of "Vetasa (Demo)".
    const tags = e.title.match(TITLE_TAGS) ?? [];
    return {
      key: e.id,
      fields: [
        wordsOf(searchNormalize(e.title.replace(TITLE_TAGS, " "))),
        credits.flatMap((c) => wordsOf(searchNormalize(c.name))),
        [...tags, e.era ?? ""].flatMap((t) => wordsOf(searchNormalize(t))),
        e.aliases.flatMap((a) => wordsOf(searchNormalize(a))),
      ],
      popularity: e.popularity,
    };
  };
  const artistDoc = (id: string, info: { name: string; tracks: number }): IndexDoc => ({
    key: id,
    fields: [wordsOf(searchNormalize(info.name))],
    popularity: info.tracks,
  });

  async function readSongs(ids?: string[]): Promise<{ rows: SongEntry[]; credits: Credit[] }> {
    let q = db
      .selectFrom("song")
      .select(["id", "title", "era", "aliases", "favorite_count", "version_of"])
      .where("status", "=", "verified")
      .where("is_hidden", "=", false);
    if (ids) q = q.where("id", "in", ids);
    let c = db
      .selectFrom("song_artist")
      .innerJoin("user", "user.id", "song_artist.artist_id")
      .select(["song_artist.song_id", "song_artist.artist_id", "user.username as name"])
      .orderBy("song_artist.song_id")
      .orderBy("song_artist.position");
    if (ids) c = c.where("song_artist.song_id", "in", ids);
    const [rows, credits] = await Promise.all([q.execute(), c.execute()]);
    return {
      rows: rows.map((r) => ({
        id: r.id,
        title: r.title,
        era: r.era,
        aliases: names(r.aliases),
        popularity: Number(r.favorite_count),
        versionOf: r.version_of,
      })),
      credits,
    };
  }

  function countCredits(list: Credit[], sign: 1 | -1): void {
    for (const c of list) {
      const info = artistInfo.get(c.artist_id);
      if (!info) continue;
      info.tracks += sign;
      artists.setPopularity(c.artist_id, info.tracks);
    }
  }

  async function build(): Promise<void> {
    building = true;
    try {
      const [{ rows, credits }, artistRows] = await Promise.all([
        readSongs(),
        db.selectFrom("user").select(["id", "username", "is_verified"]).where("is_artist", "=", true).execute(),
      ]);
      const bySong = new Map<string, Credit[]>();
      for (const c of credits) {
        const list = bySong.get(c.song_id);
        if (list) list.push(c);
        else bySong.set(c.song_id, [c]);
      }
      for (const a of artistRows)
        artistInfo.set(a.id, { name: a.username, tracks: 0, verified: Boolean(a.is_verified) });
      const docs: IndexDoc[] = [];
      for (const r of rows) {
        const list = bySong.get(r.id) ?? [];
        entries.set(r.id, r);
        creditsOf.set(r.id, list);
        docs.push(songDoc(r, list));
        for (const c of list) {
          const info = artistInfo.get(c.artist_id);
          if (info) info.tracks++;
        }
      }
      await songs.buildInSlices(docs);
      artists.build([...artistInfo].map(([id, info]) => artistDoc(id, info)));
    } finally {
      building = false;
    }
    for (const id of pendingDuringBuild) queued.add(id);
    pendingDuringBuild.clear();
    // In line with the event work (a search waits for it), never beside another reload.
    void later(flush);
  }

  /**
   * Reload queued songs from the database: in the index when public, out of it otherwise. Runs only in line
   * (`later`): two reloads side by side could apply an older read of a song after a newer one (a song verified
   * during an event's read was left out of the index, its artists counted as having no public song).
   */
  async function flush(): Promise<void> {
    while (queued.size > 0) {
      const ids = [...queued].slice(0, RELOAD_SLICE);
      for (const id of ids) queued.delete(id);
      const { rows, credits } = await readSongs(ids);
      const fresh = new Map(rows.map((r) => [r.id, r]));
      for (const id of ids) {
        changedDuringRebuild?.add(id);
        const old = creditsOf.get(id);
        if (old) countCredits(old, -1);
        const row = fresh.get(id);
        if (!row) {
          songs.remove(id);
          entries.delete(id);
          creditsOf.delete(id);
          continue;
        }
        const list = credits.filter((c) => c.song_id === id);
        for (const c of list) {
          if (!artistInfo.has(c.artist_id)) {
            artistInfo.set(c.artist_id, { name: c.name, tracks: 0, verified: false });
            artists.add(artistDoc(c.artist_id, { name: c.name, tracks: 0 }));
          }
        }
        entries.set(id, row);
        creditsOf.set(id, list);
        countCredits(list, 1);
        songs.add(songDoc(row, list));
      }
    }
    // Replaced songs leave dead postings behind; past a third, rebuild in rank order (popularity moved too).
    if (songs.deadShare > 1 / 3 && !changedDuringRebuild) void compact();
  }

  /** Rebuild the song index aside, in slices, and swap it in with the changes made meanwhile. */
  async function compact(): Promise<void> {
    changedDuringRebuild = new Set();
    try {
      const fresh = new SearchIndex();
      await fresh.buildInSlices(songs.snapshot());
      for (const id of changedDuringRebuild) {
        const e = entries.get(id);
        if (e) fresh.add(songDoc(e, creditsOf.get(id) ?? []));
        else fresh.remove(id);
      }
      songs = fresh;
    } finally {
      changedDuringRebuild = null;
    }
  }

  function schedule(songId: string): void {
    // Before the first build nothing is held: the build reads the database as it is then.
    if (!ready) return;
    if (building) {
      pendingDuringBuild.add(songId);
      return;
    }
    const first = queued.size === 0;
    queued.add(songId);
    // One read for every id queued before it runs.
    if (first) void later(flush);
  }

  /** An artist's name or badge changed (rename, merge, verification): read it and its songs again. */
  async function artistChanged(artistId: string): Promise<void> {
    const row = await db
      .selectFrom("user")
      .select(["id", "username", "is_verified", "is_artist"])
      .where("id", "=", artistId)
      .executeTakeFirst();
    const info = artistInfo.get(artistId);
    if (!row?.is_artist) {
      artists.remove(artistId);
      artistInfo.delete(artistId);
    } else {
      const next = { name: row.username, tracks: info?.tracks ?? 0, verified: Boolean(row.is_verified) };
      artistInfo.set(artistId, next);
      artists.add(artistDoc(artistId, next));
    }
    const credited = await db.selectFrom("song_artist").select("song_id").where("artist_id", "=", artistId).execute();
    for (const c of credited) queued.add(c.song_id);
    await flush();
  }

  /** The songs an import batch created or updated (their rows stay after an undo deletes the songs). */
  async function importedSongs(batchId: string): Promise<string[]> {
    const rows = await db.selectFrom("import_change").select("song_id").where("batch_id", "=", batchId).execute();
    return rows.map((r) => r.song_id);
  }

  const ensure = (): Promise<void> => {
    ready ??= build().catch((err: unknown) => {
      ready = null;
      throw err;
    });
    return ready;
  };

  return {
    /** Build the indexes now (at start), instead of at the first search. */
    warm: ensure,

    /**
     * Follow a change: every event of this instance and of the others (PostgreSQL). Fed twice with an event
     * this instance publishes (at once, and when it comes back) costs one read: queued ids are a set.
     */
    onEvent(event: AppEvent): void {
      if (event.type === "artist.changed") {
        if (ready) void later(() => artistChanged(event.artistId));
        return;
      }
      if (event.type !== "song.changed") return;
      const count = event.data.favoriteCount;
      // A favourite moves only the rank: no need to read the song again.
      if (typeof count === "number" && Object.keys(event.data).length === 1) {
        const e = entries.get(event.songId);
        if (e) {
          e.popularity = count;
          songs.setPopularity(event.songId, count);
          changedDuringRebuild?.add(event.songId);
        }
        return;
      }
      // A play count is no part of search (its rank is likes).
      if (countsOnly(event.data)) return;
      const batch = event.data.importBatch;
      if (typeof batch === "string") {
        void later(async () => {
          for (const id of await importedSongs(batch)) queued.add(id);
          await flush();
        });
        return;
      }
      schedule(event.songId);
    },

    /** Songs whose words were changed outside the song events (bulk paths): read again. */
    async refresh(songIds: string[]): Promise<void> {
      await ensure();
      for (const id of songIds) queued.add(id);
      await later(flush);
    },

    /**
     * Songs for a query, best first, at most `want`: a version stands for the song it is a version of when that
     * song is public (one entry per song, issue 16), with the better of the two matches.
     */
    async songs(query: string, want: number): Promise<SongHit[]> {
      await ensure();
      await work;
      const q = searchNormalize(query) + (/\s$/.test(query) ? " " : "");
      const best = new Map<string, IndexHit>();
      for (const hit of songs.search(q, want)) {
        const parent = entries.get(hit.key)?.versionOf;
        const id = parent && entries.has(parent) ? parent : hit.key;
        const prior = best.get(id);
        const shown = id === hit.key ? hit : { ...hit, key: id, popularity: entries.get(id)?.popularity ?? 0 };
        if (!prior || compareHits(shown, prior) < 0) best.set(id, shown);
      }
      return [...best.values()].sort(compareHits).map((hit) => ({ id: hit.key, hit }));
    },

    /** A found song's title and credits as the index holds them (suggestions need no database read). */
    describe(id: string): { title: string; artists: { id: string; name: string }[] } | null {
      const e = entries.get(id);
      if (!e) return null;
      return { title: e.title, artists: (creditsOf.get(id) ?? []).map((c) => ({ id: c.artist_id, name: c.name })) };
    },

    /**
     * Artists for a query, best first (most public songs among equal matches). `whole` is false for an artist
     * found by some of the query's words only ("isxoze tim" finds "The Vreyara Times" by "tim").
     */
    async artists(
      query: string,
      want: number,
    ): Promise<{ id: string; name: string; tracks: number; verified: boolean; whole: boolean }[]> {
      await ensure();
      await work;
      const q = searchNormalize(query) + (/\s$/.test(query) ? " " : "");
      const words = Math.min(wordsOf(q).length, MAX_QUERY_WORDS);
      // An artist with no public song is known only from pending or hidden uploads' credits (or from nothing at
      // all): like the sitemap and the page heads, search never names one (issue 38). The index holds every
      // artist (a song verified or hidden moves only its credits' counts); such artists rank last among equal
      // matches, so a few more hits than wanted nearly always hold enough public ones: more are read when not.
      let shown: IndexHit[] = [];
      for (let read = want * 4; ; read *= 4) {
        const hits = artists.search(q, read);
        shown = hits.filter((hit) => (artistInfo.get(hit.key)?.tracks ?? 0) > 0);
        if (shown.length >= want || hits.length < read || read >= want * MAX_ARTIST_READ) break;
      }
      return shown
        .sort(compareHits)
        .slice(0, want)
        .flatMap((hit) => {
          const info = artistInfo.get(hit.key);
          const whole = hit.wordsMatched >= words;
          return info ? [{ id: hit.key, name: info.name, tracks: info.tracks, verified: info.verified, whole }] : [];
        });
    },
  };
}

/** The search engine type. */
export type SearchEngine = ReturnType<typeof createSearchEngine>;
