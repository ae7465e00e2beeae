import { copyFile, link, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import {
  ADMIN_PERMISSIONS,
  NO_LEAK_DETAILS,
  POINTS_FOR_VERIFIED_SONG,
  POINTS_PER_VOTE,
  VERIFICATION_THRESHOLD,
} from "@unheard/shared";
import { hashPassword } from "better-auth/crypto";
import { type Insertable, type Kysely, sql } from "kysely";
import type { Config } from "../config.js";
import type { Database } from "../db/database.js";
import type {
  DB,
  FavoriteTable,
  FollowTable,
  NotificationTable,
  PointsLedgerTable,
  ReportTable,
  VoteTable,
} from "../db/schema.js";
import { audit } from "../lib/audit.js";
import { newId } from "../lib/ids.js";
import { enqueueJob } from "../lib/jobs.js";
import { type AudioStorage, createStorage } from "../lib/storage.js";
import { nameKey } from "../lib/text.js";
import { currentValues, insertSuggestionUnchecked } from "../modules/edit-suggestions/edit-suggestions.repo.js";
import { INDEX_JOB } from "../modules/fingerprints/fingerprints.service.js";
import { NO_AUDIO_COLUMNS } from "../modules/imports/batch-apply.js";
import { leakColumns } from "../modules/songs/leak-details.js";
import { createSongsRepo } from "../modules/songs/songs.repo.js";
import { buildCatalogue, type Catalogue, type CatalogueSong, DEMO_SONG_TOTAL } from "./catalogue.js";
import { type DemoAudioProgress, type DemoClip, findCachedDemoAudio, prepareDemoAudio } from "./demo-audio.js";
import { setDemoAudioStatus } from "./demo-audio-status.js";
import { DEMO_ACCOUNTS, DEMO_FANS, DEMO_SONGS, type DemoSong } from "./demo-data.js";
import { hashString, rng } from "./synth.js";

type Trx = Kysely<DB>;

const HOUR = 36e5;
const DAY = 864e5;

/** What a seed run tells its caller while it works. */
export type SeedProgress =
  | ({ phase: "audio" } & DemoAudioProgress)
  | { phase: "store"; songs: number }
  | { phase: "data"; songs: number };

/** A demo account as printed at first start. */
export type DemoAccount = { role: string; email: string; password: string };

export type SeedResult = {
  /** One paragraph for logs: what was created and the demo accounts. */
  summary: string;
  accounts: DemoAccount[];
  /** Songs created by this run (0 when everything was there). */
  created: number;
  /** Demo songs with audio in the database after the run. */
  songs: number;
  /** Audio files rendered by this run (the rest came from the cache). */
  rendered: number;
  /** Demo songs still without audio: `fillDemoAudio` renders them (audio: "background"). */
  audioPending: number;
};

/**
 * Create the demo accounts, members, artists and catalogue (`songs` songs with audio, votes, likes, reports, edit
 * suggestions, follows and notifications); idempotent: what exists is left alone. Audio is rendered (or taken
 * from `config.demoCacheDir`) and stored before one transaction writes every row. With `audio: "background"`
 * only the 16 demo songs' audio and what the cache holds are waited for: the other songs are written without
 * audio, and `fillDemoAudio` (run once the server listens) renders and attaches theirs.
 */
export async function seedDemo(opts: {
  database: Database;
  config: Config;
  log?: unknown;
  onlyIfEmpty?: boolean;
  /** Songs in all, the 16 demo songs included (default config.demoSongs); fewer make a quicker demo. */
  songs?: number;
  audio?: "wait" | "background";
  /** Worker threads for rendering audio (default: the machine's cores, at most 4). */
  threads?: number;
  onProgress?: (p: SeedProgress) => void;
}): Promise<SeedResult | undefined> {
  const { database, config } = opts;
  const { db } = database;
  if (opts.onlyIfEmpty) {
    const row = await db.selectFrom("user").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
    if (Number(row.n) > 0) return undefined;
  }
  const catalogue = buildCatalogue(demoTotal(opts.songs ?? config.demoSongs) - DEMO_SONGS.length);

  // Songs already there (a second run, or a database seeded before) are skipped: no audio is made for them.
  const wanted: Wanted[] = [
    ...DEMO_SONGS.map((song, demoIndex) => ({ song, demoIndex })),
    ...catalogue.songs.map((song) => ({ song, demoIndex: -1 })),
  ];
  const existing = new Set<string>();
  const keys = wanted.map((w) => nameKey(w.song.title));
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db
      .selectFrom("song")
      .select("title_key")
      .where("title_key", "in", keys.slice(i, i + 500))
      .execute();
    for (const r of rows) existing.add(r.title_key);
  }
  const toCreate = wanted.filter((w) => !existing.has(nameKey(w.song.title)));

  // Hash outside the transaction: scrypt is slow and must not hold the write lock.
  const hashes = new Map<string, string>();
  for (const a of DEMO_ACCOUNTS) hashes.set(a.email, await hashPassword(a.password));
  const memberHash = await hashPassword(`member-${newId()}`);

  // Audio now: every song's (wait), or the demo songs' and whatever the cache has (background).
  const specs = toCreate.map((w) => ({ title: w.song.title, genre: w.song.genre }));
  const clips: (DemoClip | undefined)[] =
    opts.audio === "background" ? await findCachedDemoAudio(specs, config.demoCacheDir) : new Array(specs.length);
  const renderNow = toCreate.map((w, i) => (opts.audio !== "background" || w.demoIndex >= 0) && !clips[i]);
  let rendered = 0;
  const ready = await prepareDemoAudio(
    specs.filter((_, i) => renderNow[i]),
    {
      cacheDir: config.demoCacheDir,
      ...(opts.threads ? { threads: opts.threads } : {}),
      onProgress: (p) => {
        rendered = p.done - p.cached;
        opts.onProgress?.({ phase: "audio", ...p });
      },
    },
  );
  for (const [i, want] of renderNow.entries()) if (want) clips[i] = ready.shift();
  const present = clips.filter((c): c is DemoClip => c !== undefined);
  opts.onProgress?.({ phase: "store", songs: present.length });
  const storage = createStorage(config);
  const keyOf = new Map<DemoClip, string>();
  await Promise.all(
    chunk(present, Math.ceil(present.length / 8) || 1).map(async (list) => {
      for (const clip of list) keyOf.set(clip, await storeClip(storage, clip, path.join(config.dataDir, "tmp")));
    }),
  );

  opts.onProgress?.({ phase: "data", songs: toCreate.length });
  const created = await database.tx(async (trx) => {
    const ids = await seedPeople(trx, catalogue, hashes, memberHash);
    return seedSongs(trx, database, catalogue, ids, toCreate, clips, keyOf);
  });
  const [withAudio, without] = await Promise.all(
    [true, false].map((has) =>
      db
        .selectFrom("song")
        .select(sql<number>`count(*)`.as("n"))
        .where(
          "title_key",
          "in",
          wanted.map((w) => nameKey(w.song.title)),
        )
        .where("audio_key", has ? "is not" : "is", null)
        .executeTakeFirstOrThrow(),
    ),
  );
  const accounts = DEMO_ACCOUNTS.map(({ role, email, password }) => ({ role, email, password }));
  const lines = [
    `Demo data ready (${created} new songs, ${rendered} audio files rendered). Demo accounts:`,
    ...accounts.map((a) => `  ${a.role.padEnd(11)} ${a.email}  password: ${a.password}`),
  ];
  return {
    summary: lines.join("\n"),
    accounts,
    created,
    songs: Number(withAudio?.n ?? 0),
    rendered,
    audioPending: Number(without?.n ?? 0),
  };
}

/** Songs in a demo of `songs` songs: never fewer than the 16 demo songs. */
function demoTotal(songs: number | undefined): number {
  return Math.max(DEMO_SONGS.length, songs ?? DEMO_SONG_TOTAL);
}

/**
 * Render and attach the audio of demo songs that have none yet (seeded with audio: "background", or a start
 * that stopped before it finished): each song gets its file, its measurements and its fingerprinting job as
 * soon as its render is done. Returns how many songs got audio. Stops early when `signal` aborts. Meanwhile
 * `demoAudioStatus(database)` (and `onProgress`) says how many of the songs waiting have their audio.
 */
export async function fillDemoAudio(opts: {
  database: Database;
  config: Config;
  threads?: number;
  /** Songs attached so far (`done`, those from the cache first) of the `total` that had no audio. */
  onProgress?: (p: { done: number; total: number }) => void;
  signal?: AbortSignal;
}): Promise<number> {
  const { database, config } = opts;
  const plan = new Map<string, { title: string; genre: string }>();
  for (const s of [...DEMO_SONGS, ...buildCatalogue(demoTotal(config.demoSongs) - DEMO_SONGS.length).songs])
    plan.set(nameKey(s.title), { title: s.title, genre: s.genre });
  const rows =
    // Newest first: the home page's songs become playable first.
    (
      await database.db
        .selectFrom("song")
        .select(["id", "title_key"])
        .where("audio_key", "is", null)
        .orderBy("created_at", "desc")
        .execute()
    ).filter((r) => plan.has(r.title_key));
  if (rows.length === 0) {
    setDemoAudioStatus(database, null);
    return 0;
  }
  const total = rows.length;
  let done = 0;
  let over = false;
  const report = () => {
    // An attach still in the chain after a failure must not bring back a progress that is over.
    if (over) return;
    setDemoAudioStatus(database, { done, total });
    opts.onProgress?.({ done, total });
  };
  report();
  const storage = createStorage(config);
  const tmpDir = path.join(config.dataDir, "tmp");
  let filled = 0;
  // One song at a time into the store and the database, in the order the renders finish.
  let chain = Promise.resolve();
  const attach = (index: number, clip: DemoClip) => {
    const row = rows[index];
    if (!row) return;
    chain = chain.then(async () => {
      const key = await storeClip(storage, clip, tmpDir);
      const changed = await database.tx(async (trx) => {
        const res = await trx
          .updateTable("song")
          .set(audioColumns(clip, key))
          .where("id", "=", row.id)
          .where("audio_key", "is", null)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) return false;
        await enqueueJob(trx, INDEX_JOB, { songId: row.id });
        return true;
      });
      if (changed) filled++;
      // Counted once the row has its audio, so a page that refetches on this number finds the player.
      done++;
      report();
    });
  };
  try {
    await prepareDemoAudio(
      rows.map((r) => plan.get(r.title_key) as { title: string; genre: string }),
      {
        cacheDir: config.demoCacheDir,
        onClip: attach,
        ...(opts.threads ? { threads: opts.threads } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
    );
    await chain;
  } finally {
    // Finished, failed or stopped: no page should keep saying audio is on its way.
    over = true;
    setDemoAudioStatus(database, null);
  }
  return filled;
}

/** The song columns that describe its audio. */
function audioColumns(clip: DemoClip, key: string) {
  return {
    audio_key: key,
    audio_mime: clip.mime,
    audio_size: clip.size,
    audio_sha256: clip.sha256,
    duration_sec: clip.analysis.durationSec,
    sample_rate: clip.analysis.sampleRate,
    channels: clip.analysis.channels,
    audio_min: clip.analysis.stats.min,
    audio_max: clip.analysis.stats.max,
    audio_mean: clip.analysis.stats.mean,
    silence_ratio: clip.analysis.stats.silenceRatio,
  };
}

function chunk<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Put a cached file into the audio store (local folder or S3) under a content key, unless it is there. */
async function storeClip(storage: AudioStorage, clip: DemoClip, tmpDir: string): Promise<string> {
  const key = `demo-${clip.sha256.slice(0, 16)}.mp3`;
  if ((await storage.size(key)) === clip.size) return key;
  await mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, `${key}.${newId()}.tmp`);
  try {
    // A hard link when the cache is on the same disk (no second copy of the file); else a copy.
    await link(clip.file, tmp).catch(() => copyFile(clip.file, tmp));
    await storage.putFile(key, tmp);
  } finally {
    await rm(tmp, { force: true });
  }
  return key;
}

/** A song to create: one of the 16 demo songs (demoIndex >= 0) or of the generated catalogue. */
type Wanted = { song: DemoSong | CatalogueSong; demoIndex: number };

type People = {
  accounts: Record<string, string>;
  members: Map<string, string>;
  /** Members and demo fans in the catalogue's order. */
  memberIds: string[];
  artists: Map<string, string>;
};

const iso = (ms: number) => new Date(ms).toISOString();

/** Demo accounts (with their admin rows), members and artist accounts; existing ones are kept as they are. */
async function seedPeople(
  trx: Trx,
  catalogue: Catalogue,
  hashes: Map<string, string>,
  memberHash: string,
): Promise<People> {
  const now = Date.now();
  const accounts: Record<string, string> = {};
  for (const a of DEMO_ACCOUNTS) {
    accounts[a.role] = (
      await ensureUser(trx, {
        email: a.email,
        username: a.username,
        role: a.role,
        passwordHash: hashes.get(a.email) ?? "",
        createdAt: iso(now - 400 * DAY),
      })
    ).id;
    if (a.role !== "user") {
      const granted: readonly string[] = a.permissions;
      const perms = Object.fromEntries(ADMIN_PERMISSIONS.map((p) => [p, granted.includes(p)]));
      await trx
        .insertInto("admin")
        .values({
          user_id: accounts[a.role] ?? "",
          permissions: JSON.stringify(perms),
          added_by: null,
          added_at: iso(now - 400 * DAY),
          last_active: null,
        })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .execute();
    }
  }
  const members = new Map<string, string>();
  for (const m of catalogue.members) {
    const { id } = await ensureUser(trx, {
      email: `${m.username}@unheard.local`,
      username: m.username,
      role: m.role,
      passwordHash: memberHash,
      createdAt: iso(now - m.joinedDaysAgo * DAY),
    });
    members.set(m.username, id);
  }
  // Verified artists have their own accounts (claimed and verified by an admin, as the audit log shows);
  // placeholders are created by their first song, as an upload would.
  const artists = new Map<string, string>();
  const superId = accounts.super_admin ?? null;
  for (const [i, a] of catalogue.artists.entries()) {
    if (a.kind !== "verified") continue;
    const slug = nameKey(a.name).replace(/[^a-z0-9]+/g, "");
    const joined = iso(now - (200 + i * 3) * DAY);
    const { id, created } = await ensureUser(trx, {
      email: `${slug}@artists.unheard.local`,
      username: a.name,
      role: "user",
      passwordHash: memberHash,
      createdAt: joined,
    });
    await trx
      .updateTable("user")
      .set({
        is_artist: true,
        is_verified: true,
        is_placeholder: false,
        bio: a.bio,
        instagram: a.instagram,
        website: a.website,
      })
      .where("id", "=", id)
      .execute();
    if (created) {
      await audit(trx, superId, "artist.verified", id, {}, iso(now - (150 + i) * DAY));
    }
    artists.set(a.name, id);
  }
  const fanIds = DEMO_FANS.map((f) => members.get(f) ?? "");
  return {
    accounts,
    members,
    memberIds: [...fanIds, ...[...members.values()].filter((id) => !fanIds.includes(id))],
    artists,
  };
}

/** Songs with their credits, search index, audio, votes, likes and points; then the moderation queues. */
async function seedSongs(
  trx: Trx,
  database: Database,
  catalogue: Catalogue,
  people: People,
  toCreate: Wanted[],
  clips: (DemoClip | undefined)[],
  keyOf: Map<DemoClip, string>,
): Promise<number> {
  const songsRepo = createSongsRepo(database);
  const now = Date.now();
  const r = rng(hashString("unheard demo activity v1"));
  const listener = people.accounts.user ?? "";
  const admin = people.accounts.admin ?? "";
  const superAdmin = people.accounts.super_admin ?? "";
  const fans = DEMO_FANS.map((f) => people.members.get(f) ?? "");
  const demoVoters = [...fans, admin];
  const votes: Insertable<VoteTable>[] = [];
  const favorites: Insertable<FavoriteTable>[] = [];
  const ledger: Insertable<PointsLedgerTable>[] = [];
  const songIds = new Map<string, string>();
  const songById = new Map<string, { title: string; artists: string[]; created: number; submitter: string }>();
  const jobs: string[] = [];

  for (const [i, { song: s, demoIndex }] of toCreate.entries()) {
    const clip = clips[i];
    const songId = newId();
    songIds.set(s.title, songId);
    const demo = demoIndex >= 0;
    // Demo songs are the newest (one every 20 hours); the catalogue spreads over the year before.
    const created = demo
      ? now - (DEMO_SONGS.length - demoIndex) * HOUR * 20
      : now - (s as CatalogueSong).createdHoursAgo * HOUR;
    const createdAt = iso(created);
    const submitter = demo ? listener : (people.members.get((s as CatalogueSong).submitter ?? "") ?? listener);
    const release = s.releaseInDays === undefined ? null : iso(now + s.releaseInDays * DAY).slice(0, 10);
    const ups = demo ? Math.max(0, s.votes) : (s as CatalogueSong).upvotes;
    const downs = demo ? Math.max(0, -s.votes) : (s as CatalogueSong).downvotes;
    const verified = ups - downs >= VERIFICATION_THRESHOLD;
    const verifiedAt = verified ? iso(Math.min(now - HOUR, created + (demo ? 0 : (2 + r() * 70) * HOUR))) : null;
    await trx
      .insertInto("song")
      .values({
        id: songId,
        title: s.title,
        title_key: nameKey(s.title),
        genre: s.genre,
        release_date: release,
        soundcloud_url: s.soundcloud ?? null,
        ...leakColumns(catalogue.leaks.get(s.title) ?? NO_LEAK_DETAILS),
        submitted_by: submitter,
        status: verified ? "verified" : "pending",
        verified_at: verifiedAt,
        ...(clip ? audioColumns(clip, keyOf.get(clip) ?? "") : NO_AUDIO_COLUMNS),
        created_at: createdAt,
        updated_at: verifiedAt ?? createdAt,
      })
      .execute();
    const artistIds: string[] = [];
    for (const name of s.artists) artistIds.push(people.artists.get(name) ?? (await songsRepo.ensureArtist(trx, name)));
    await songsRepo.setArtists(trx, songId, artistIds);
    if (clip) jobs.push(songId);
    songById.set(songId, { title: s.title, artists: s.artists, created, submitter });

    // Votes: the demo songs' from the six fans and the admin, as before; the catalogue's from members.
    const voters = demo
      ? demoVoters
      : shuffled(
          people.memberIds.filter((id) => id !== submitter),
          r,
        );
    for (let v = 0; v < ups + downs; v++) {
      const voter = voters[v % voters.length] ?? "";
      // A verified song's upvotes came before it verified (only those count toward a voter's record, issue 24).
      const span =
        verified && verifiedAt && v < ups
          ? Date.parse(verifiedAt) - created
          : Math.min(now - created, verified ? 96 * HOUR : now - created);
      const at = demo ? createdAt : iso(created + r() * span);
      votes.push({
        song_id: songId,
        user_id: voter,
        value: v < ups ? 1 : -1,
        reason: v < ups ? null : "low_quality",
        details: null,
        created_at: at,
        updated_at: at,
      });
      ledger.push({ id: newId(), user_id: voter, delta: POINTS_PER_VOTE, reason: "vote", ref: songId, created_at: at });
    }
    if (verified && verifiedAt)
      ledger.push({
        id: newId(),
        user_id: submitter,
        delta: POINTS_FOR_VERIFIED_SONG,
        reason: "song_verified",
        ref: songId,
        created_at: verifiedAt,
      });

    // Likes: the demo songs' as before (some this week, some older); the catalogue's `weekFavorites` fall in
    // the last 7 days (well inside it, so the count holds for a while), the rest before.
    if (demo) {
      for (let f = 0; f < s.favorites; f++) {
        const favAt = iso(now - (f + 1) * HOUR * (demoIndex % 3 === 0 ? 30 : 5));
        favorites.push({ song_id: songId, user_id: fans[f % fans.length] ?? "", created_at: favAt });
      }
    } else {
      const c = s as CatalogueSong;
      const likers = shuffled(
        people.memberIds.filter((id) => id !== submitter),
        r,
      ).slice(0, c.favorites);
      for (const [f, user] of likers.entries()) {
        const at =
          f < c.weekFavorites
            ? now - (2 + r() * (6.5 * 24 - 4)) * HOUR
            : created + r() * Math.max(HOUR, now - 8 * DAY - created);
        favorites.push({ song_id: songId, user_id: user, created_at: iso(at) });
      }
    }
  }

  // Versions (issue 16): linked once both songs exist.
  for (const [title, v] of catalogue.versions) {
    const id = songIds.get(title);
    const of = songIds.get(v.of);
    if (id && of)
      await trx.updateTable("song").set({ version_of: of, version_kind: v.kind }).where("id", "=", id).execute();
  }

  // The listener likes a few catalogue songs, so their favourites page is not empty.
  const listenerLikes = catalogue.songs.filter((s) => s.upvotes - s.downvotes >= 3).slice(3, 9);
  for (const s of listenerLikes) {
    const id = songIds.get(s.title);
    if (id && !favorites.some((f) => f.song_id === id && f.user_id === listener))
      favorites.push({ song_id: id, user_id: listener, created_at: iso(now - (10 + r() * 40) * DAY) });
  }

  await insertChunks(trx, "vote", votes);
  await insertChunks(trx, "favorite", favorites);
  await insertChunks(trx, "points_ledger", ledger);
  // Fingerprinted by the server's job loop like any upload: the demo songs first (the newest, and the ones
  // recognition is tried on), so they are indexed within seconds of the start.
  const demoIds = new Set(toCreate.filter((w) => w.demoIndex >= 0).map((w) => songIds.get(w.song.title)));
  for (const id of jobs.filter((j) => demoIds.has(j))) await enqueueJob(trx, INDEX_JOB, { songId: id });
  await new Promise((resolve) => setTimeout(resolve, 5));
  for (const id of jobs.filter((j) => !demoIds.has(j))) await enqueueJob(trx, INDEX_JOB, { songId: id });

  if (toCreate.length > 0) {
    await seedModeration(trx, catalogue, people, songIds, r, { admin, superAdmin, listener });
    await seedNotifications(trx, songById, songIds, r, { listener });
  }
  await seedFollows(trx, catalogue, people, r, listener);

  // Counters are derived from the rows just written, never typed in.
  const weekAgo = iso(now - 7 * DAY);
  const created = [...songIds.values()];
  for (let i = 0; i < created.length; i += 200) {
    await trx
      .updateTable("song")
      .set({
        upvotes: sql`(select count(*) from vote where vote.song_id = song.id and value = 1)`,
        downvotes: sql`(select count(*) from vote where vote.song_id = song.id and value = -1)`,
        favorite_count: sql`(select count(*) from favorite where favorite.song_id = song.id)`,
        week_likes: sql`(select count(*) from favorite where favorite.song_id = song.id and favorite.created_at >= ${weekAgo})`,
        report_count: sql`(select count(*) from report where report.song_id = song.id)`,
      })
      .where("id", "in", created.slice(i, i + 200))
      .execute();
  }
  await trx
    .updateTable("user")
    .set({
      credit_count: sql`(select count(*) from song_artist where song_artist.artist_id = "user".id)`,
      follower_count: sql`(select count(*) from follow where follow.artist_id = "user".id)`,
    })
    .where("is_artist", "=", true)
    .execute();
  // Points always equal the ledger.
  await trx
    .updateTable("user")
    .set({ points: sql`coalesce((select sum(delta) from points_ledger where points_ledger.user_id = "user".id), 0)` })
    .execute();
  return created.length;
}

/** Open reports and edit suggestions for the admin queues, and a few already handled (with their notifications). */
async function seedModeration(
  trx: Trx,
  catalogue: Catalogue,
  people: People,
  songIds: Map<string, string>,
  r: () => number,
  who: { admin: string; superAdmin: string; listener: string },
): Promise<void> {
  const now = Date.now();
  const reports: Insertable<ReportTable>[] = [];
  const notifications: Insertable<NotificationTable>[] = [];
  const all = [...catalogue.reports.map((x) => ({ ...x, status: "pending" as const })), ...catalogue.processedReports];
  for (const [i, rep] of all.entries()) {
    const songId = songIds.get(rep.song);
    // The listener filed one of the handled reports, so their notifications show how that ends.
    const song = catalogue.songs.find((x) => x.title === rep.song);
    const user = i === all.length - 1 && song?.submitter ? who.listener : people.members.get(rep.reporter);
    if (!songId || !user) continue;
    const created = now - (1 + r() * 12) * DAY;
    const processed = rep.status !== "pending" ? now - r() * (now - created) * 0.8 : null;
    reports.push({
      id: newId(),
      song_id: songId,
      user_id: user,
      reason: rep.reason,
      details: rep.details,
      status: rep.status,
      created_at: iso(created),
      processed_at: processed ? iso(processed) : null,
      processed_by: processed ? who.admin : null,
    });
    if (processed) {
      notifications.push(
        notification(user, "report_processed", { songId, songTitle: rep.song, status: rep.status }, processed, r),
      );
      await audit(
        trx,
        who.admin,
        `report.${rep.status as "resolved" | "rejected"}`,
        reports.at(-1)?.id ?? null,
        { songId },
        iso(processed),
      );
    }
  }
  await insertChunks(trx, "report", reports);

  for (const [i, s] of catalogue.suggestions.entries()) {
    const songId = songIds.get(s.song);
    const by = people.members.get(s.by);
    if (!songId || !by) continue;
    const current = await currentValues(trx, songId);
    if (!current) continue;
    const { artists } = current;
    const fields = {
      title: s.change === "title" ? `${current.title} (Original Mix)` : current.title,
      artists:
        s.change === "feature"
          ? [...artists, catalogue.artists[(i * 13) % catalogue.artists.length]?.name ?? "Guest"].filter(
              (a, k, l) => l.indexOf(a) === k,
            )
          : artists,
      genre: s.change === "genre" ? (current.genre === "Pop" ? "Electronic" : "Pop") : current.genre,
      releaseDate: s.change === "releaseDate" ? iso(now + (14 + i * 9) * DAY).slice(0, 10) : current.releaseDate,
      soundcloudUrl: current.soundcloudUrl,
      era: current.era,
      producers: current.producers,
      features: current.features,
      references: current.references,
      aliases: current.aliases,
      versionLabel: current.versionLabel,
      tags: current.tags,
      leakDate: current.leakDate,
      fileDate: current.fileDate,
      trackLength: current.trackLength,
      availability: current.availability,
      quality: current.quality,
      notes: current.notes,
      links: current.links,
    };
    const id = await insertSuggestionUnchecked(trx, by, songId, fields, s.reason);
    const submitted = now - (1 + r() * 10) * DAY;
    await trx
      .updateTable("edit_suggestion")
      .set({ submitted_at: iso(submitted) })
      .where("id", "=", id)
      .execute();
    if (s.status === "rejected") {
      const reviewed = submitted + r() * (now - submitted) * 0.8;
      await trx
        .updateTable("edit_suggestion")
        .set({
          status: "rejected",
          reviewed_by: who.superAdmin,
          reviewed_at: iso(reviewed),
          review_notes: "Thanks! The artist's own post says otherwise, so this stays as it is.",
        })
        .where("id", "=", id)
        .execute();
      notifications.push(
        notification(by, "suggestion_processed", { songId, songTitle: current.title, status: "rejected" }, reviewed, r),
      );
      await audit(trx, who.superAdmin, "suggestion.rejected", id, { songId }, iso(reviewed));
    }
  }
  await insertChunks(trx, "notification", notifications);
}

function notification(
  userId: string,
  kind: string,
  payload: Record<string, unknown>,
  at: number,
  r: () => number,
): Insertable<NotificationTable> {
  // Older ones have mostly been read.
  const read = Date.now() - at > 3 * DAY ? r() < 0.85 : r() < 0.2;
  return {
    id: newId(),
    user_id: userId,
    kind,
    payload: JSON.stringify(payload),
    read_at: read ? iso(Math.min(Date.now(), at + HOUR * (1 + r() * 20))) : null,
    created_at: iso(at),
  };
}

/** What the notification bell would have collected: new songs by followed artists, verified songs, ... */
async function seedNotifications(
  trx: Trx,
  songs: Map<string, { title: string; artists: string[]; created: number; submitter: string }>,
  songIds: Map<string, string>,
  r: () => number,
  who: { listener: string },
): Promise<void> {
  const now = Date.now();
  const rows: Insertable<NotificationTable>[] = [];
  const recent = [...songs.entries()].filter(([, s]) => now - s.created < 30 * DAY);
  // Songs verified recently: their submitters hear of it.
  const verified = await trx
    .selectFrom("song")
    .select(["id", "title", "verified_at", "submitted_by"])
    .where("status", "=", "verified")
    .where("id", "in", recent.length > 0 ? recent.map(([id]) => id) : [""])
    .execute();
  for (const s of verified) {
    if (!s.submitted_by || !s.verified_at) continue;
    const at = Date.parse(s.verified_at instanceof Date ? s.verified_at.toISOString() : s.verified_at);
    rows.push(notification(s.submitted_by, "song_verified", { songId: s.id, songTitle: s.title }, at, r));
  }
  // New songs by artists the listener follows (the follows are written below; these artists are in them).
  for (const [id, s] of recent) {
    if (s.submitter === who.listener || !s.artists.some((a) => LISTENER_FOLLOWS.includes(a))) continue;
    rows.push(
      notification(
        who.listener,
        "new_song",
        { songId: id, songTitle: s.title, artists: s.artists },
        s.created + HOUR,
        r,
      ),
    );
  }
  // One of the listener's songs slipped back to pending after downvotes.
  const slipped = songIds.get("Tidal Static");
  if (slipped)
    rows.push(
      notification(who.listener, "song_unverified", { songId: slipped, songTitle: "Tidal Static" }, now - 2 * HOUR, r),
    );
  await insertChunks(trx, "notification", rows);
}

/** Artists the demo listener follows. */
const LISTENER_FOLLOWS = ["Nova Reyes", "Mara Vance", "The Lowlight"];

/** Members follow a few artists each (the listener three); existing follows are kept. */
async function seedFollows(trx: Trx, catalogue: Catalogue, people: People, r: () => number, listener: string) {
  const now = Date.now();
  const artistIds = new Map<string, string>();
  const rows = await trx.selectFrom("user").select(["id", "username"]).where("is_artist", "=", true).execute();
  for (const row of rows) artistIds.set(row.username, row.id);
  const follows: Insertable<FollowTable>[] = [];
  const add = (follower: string | undefined, artist: string) => {
    const id = artistIds.get(artist);
    if (follower && id && id !== follower)
      follows.push({ follower_id: follower, artist_id: id, created_at: iso(now - (30 + r() * 300) * DAY) });
  };
  for (const [member, artists] of catalogue.follows) for (const a of artists) add(people.members.get(member), a);
  for (const a of LISTENER_FOLLOWS) add(listener, a);
  for (let i = 0; i < follows.length; i += 200)
    await trx
      .insertInto("follow")
      .values(follows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(["follower_id", "artist_id"]).doNothing())
      .execute();
}

/** Rows of one table, 200 to an INSERT (few round trips on PostgreSQL, under SQLite's variable limit). */
async function insertChunks<T extends "vote" | "favorite" | "points_ledger" | "report" | "notification">(
  trx: Trx,
  table: T,
  rows: Insertable<DB[T]>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + 200) as Insertable<DB[T]>[] as never)
      .execute();
  }
}

/** A deterministic shuffle (Fisher-Yates) of a copy. */
function shuffled<T>(list: T[], r: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

async function ensureUser(
  trx: Trx,
  u: { email: string; username: string; role: string; passwordHash: string; createdAt: string },
): Promise<{ id: string; created: boolean }> {
  const existing = await trx
    .selectFrom("user")
    .select("id")
    .where((eb) => eb.or([eb("email", "=", u.email), eb("username_key", "=", nameKey(u.username))]))
    .executeTakeFirst();
  if (existing) return { id: existing.id, created: false };
  const id = newId();
  await trx
    .insertInto("user")
    .values({
      id,
      name: u.username,
      email: u.email,
      email_verified: true,
      image: null,
      created_at: u.createdAt,
      updated_at: u.createdAt,
      username: u.username,
      username_key: nameKey(u.username),
      role: u.role,
      off_waitlist: true,
      instagram: null,
      twitter: null,
      website: null,
    })
    .execute();
  await trx
    .insertInto("account")
    .values({
      id: newId(),
      account_id: id,
      provider_id: "credential",
      user_id: id,
      password: u.passwordHash,
      access_token: null,
      refresh_token: null,
      id_token: null,
      access_token_expires_at: null,
      refresh_token_expires_at: null,
      scope: null,
      created_at: u.createdAt,
      updated_at: u.createdAt,
    })
    .execute();
  return { id, created: true };
}
