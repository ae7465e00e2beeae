import { readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_PRESET } from "@unheard/fingerprint";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sniffAudio } from "../lib/audio.js";
import {
  fingerprintAudioFile,
  hashCacheDirIn,
  hashCacheFile,
  readHashCache,
} from "../modules/fingerprints/fingerprint-file.js";
import { INDEX_JOB } from "../modules/fingerprints/fingerprints.service.js";
import { trustOf } from "../modules/trust/trust.service.js";
import { expectProfileCounts } from "../test/consistency.js";
import { getMe } from "../test/fixtures.js";
import { createTestApp, describeEachDialect, sessionCookie, type TestContext } from "../test/harness.js";
import { buildCatalogue } from "./catalogue.js";
import { demoAudioJob } from "./demo-audio.js";
import { DEMO_ACCOUNTS, DEMO_SONGS } from "./demo-data.js";
import { fillDemoAudio, type SeedProgress, type SeedResult, seedDemo } from "./seed.js";

const log = { info() {} };
/** A smaller catalogue than a real start (300), with its audio cached across runs: seeding takes seconds. */
const SONGS = 60;
const CACHE = path.join(tmpdir(), "unheard-demo-cache-test");

describeEachDialect("demo data", (dialect) => {
  let ctx: TestContext;
  let first: SeedResult | undefined;
  const progress: SeedProgress[] = [];
  const truthy = dialect === "sqlite" ? sql`1` : sql`true`;
  beforeAll(async () => {
    ctx = await createTestApp(dialect, { env: { DEMO_CACHE_DIR: CACHE } });
    first = await seedDemo({
      database: ctx.database,
      config: ctx.config,
      log,
      songs: SONGS,
      onProgress: (p) => progress.push(p),
    });
  });
  afterAll(() => ctx.close());

  it("seeds once, idempotently, with counters equal to their rows", async () => {
    expect(first?.summary).toContain("listener@unheard.local");
    expect(first?.created).toBe(SONGS);
    expect(first?.accounts).toEqual(DEMO_ACCOUNTS.map(({ role, email, password }) => ({ role, email, password })));
    expect(progress.at(-1)).toEqual({ phase: "data", songs: SONGS });
    expect(progress.filter((p) => p.phase === "audio").at(-1)).toMatchObject({ done: SONGS, total: SONGS });
    const again = await seedDemo({ database: ctx.database, config: ctx.config, log, songs: SONGS });
    expect(again?.created).toBe(0);
    expect(await seedDemo({ database: ctx.database, config: ctx.config, log, onlyIfEmpty: true })).toBeUndefined();
    const { db } = ctx.database;
    const songs = await db.selectFrom("song").selectAll().execute();
    expect(songs).toHaveLength(SONGS);
    expect(songs.some((s) => s.status === "verified")).toBe(true);

    const weekAgo = new Date(Date.now() - 7 * 864e5).toISOString();
    const mismatched = await sql<{ id: string }>`
      select s.id from song s
      where s.upvotes != (select count(*) from vote v where v.song_id = s.id and v.value = 1)
         or s.downvotes != (select count(*) from vote v where v.song_id = s.id and v.value = -1)
         or s.favorite_count != (select count(*) from favorite f where f.song_id = s.id)
         or s.week_likes != (select count(*) from favorite f where f.song_id = s.id and f.created_at >= ${weekAgo})
         or s.report_count != (select count(*) from report r where r.song_id = s.id)
         or (s.status = 'verified') != (s.upvotes - s.downvotes >= 3)`.execute(db);
    expect(mismatched.rows).toEqual([]);
    const badPoints = await sql<{ id: string }>`
      select u.id from "user" u
      where u.points != coalesce((select sum(delta) from points_ledger p where p.user_id = u.id), 0)`.execute(db);
    expect(badPoints.rows).toEqual([]);
    const badArtists = await sql<{ id: string }>`
      select u.id from "user" u where u.is_artist = ${truthy}
        and (u.credit_count != (select count(*) from song_artist sa where sa.artist_id = u.id)
          or u.follower_count != (select count(*) from follow f where f.artist_id = u.id))`.execute(db);
    expect(badArtists.rows).toEqual([]);
    // Nobody votes on their own song; every verified song paid its submitter once.
    const ownVotes = await sql<{ n: number }>`
      select count(*) as n from vote v join song s on s.id = v.song_id where v.user_id = s.submitted_by`.execute(db);
    expect(Number(ownVotes.rows[0]?.n)).toBe(0);
    const paid = await sql<{
      n: number;
    }>`select count(*) as n from points_ledger where reason = 'song_verified'`.execute(db);
    expect(Number(paid.rows[0]?.n)).toBe(songs.filter((s) => s.status === "verified").length);
  });

  it("gives every song its own playable, measured audio, queued for fingerprinting", async () => {
    const { db } = ctx.database;
    const songs = await db.selectFrom("song").selectAll().execute();
    for (const s of songs) {
      expect(s.audio_key, s.title).toMatch(/^demo-[0-9a-f]{16}\.mp3$/);
      expect(s.audio_mime).toBe("audio/mpeg");
      expect(Number(s.duration_sec)).toBeGreaterThanOrEqual(30);
      expect(Number(s.duration_sec)).toBeLessThanOrEqual(61);
      expect(Number(s.silence_ratio)).toBeLessThan(0.5);
      expect(statSync(path.join(ctx.dataDir, "audio", s.audio_key ?? "")).size).toBe(Number(s.audio_size));
    }
    expect(new Set(songs.map((s) => s.audio_sha256)).size).toBe(songs.length);
    // Fingerprinted where they were rendered: the cached hashes and invariant entries are what decoding the stored file
    // gives.
    for (const s of songs.slice(0, 3)) {
      const file = path.join(ctx.dataDir, "audio", s.audio_key ?? "");
      const format = sniffAudio(readFileSync(file));
      if (!format) throw new Error(`${s.title}: not audio`);
      const decoded = (await fingerprintAudioFile(file, format, DEFAULT_PRESET)).hashes;
      const cached = await readHashCache(hashCacheFile(hashCacheDirIn(CACHE), s.audio_sha256 ?? "", DEFAULT_PRESET));
      expect(cached?.count, s.title).toBeGreaterThan(1000);
      expect(cached?.invariant.count, s.title).toBeGreaterThan(300);
      expect(cached).toEqual({
        count: decoded.count,
        hashes: decoded.hashes.slice(0, decoded.count),
        offsets: decoded.offsets.slice(0, decoded.count),
        invariant: decoded.invariant,
      });
    }
    const jobs = await db.selectFrom("job").select("payload").where("kind", "=", INDEX_JOB).execute();
    expect(new Set(jobs.map((j) => (JSON.parse(j.payload) as { songId: string }).songId))).toEqual(
      new Set(songs.map((s) => s.id)),
    );
  });

  it("fills the feeds: the demo songs newest, trending this week, pending songs at every vote count", async () => {
    const newest = (await ctx.app.inject({ url: "/api/songs?feed=newest&limit=24" })).json();
    const titles = newest.items.map((s: { title: string }) => s.title);
    expect(titles).toContain("Midnight Circuit");
    expect(titles).toContain("Glass Horizon");
    expect(newest.nextCursor).not.toBeNull();
    const trending = (await ctx.app.inject({ url: "/api/songs?feed=trending&limit=24" })).json();
    expect(trending.items.length).toBeGreaterThan(5);
    expect(trending.items.map((s: { title: string }) => s.title)).toContain("Glass Horizon");
    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "admin@unheard.local", password: "admin123" },
    });
    const pending = (
      await ctx.app.inject({ url: "/api/songs/pending?limit=48", headers: { cookie: sessionCookie(login) } })
    ).json();
    const nets = new Set(pending.items.map((s: { net: number }) => s.net));
    for (const n of [0, 1, 2]) expect(nets).toContain(n);
    expect([...nets].some((n) => Number(n) < 0)).toBe(true);
    for (const filter of ["released", "undated", "dated"]) {
      const page = (await ctx.app.inject({ url: `/api/songs?release=${filter}` })).json();
      expect(page.items.length, filter).toBeGreaterThan(0);
    }
    const soon = (await ctx.app.inject({ url: "/api/songs?next7=1" })).json();
    expect(soon.items.length).toBeGreaterThan(0);
    expect(DEMO_SONGS.every((d) => titles.includes(d.title) || d.votes < 3)).toBe(true);
  });

  it("gives many songs leak details and links some as versions of others (issue 16)", async () => {
    const { db } = ctx.database;
    const rows = await db.selectFrom("song").select(["availability", "era", "version_of", "version_kind"]).execute();
    expect(rows.filter((r) => r.availability !== null).length).toBeGreaterThan(SONGS / 3);
    expect(rows.filter((r) => r.era !== null).length).toBeGreaterThan(SONGS / 5);
    const versions = rows.filter((r) => r.version_of !== null);
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.every((r) => r.version_kind !== null)).toBe(true);
    // One level deep: no song a version points at is a version itself.
    const parents = new Set(versions.map((r) => r.version_of));
    const parentRows = await db
      .selectFrom("song")
      .select("version_of")
      .where("id", "in", [...parents] as string[])
      .execute();
    expect(parentRows.every((r) => r.version_of === null)).toBe(true);
  });

  it("fills the moderation queues, follows, artists and notifications", async () => {
    const { db } = ctx.database;
    const count = async (q: Promise<{ n: unknown } | undefined>) => Number((await q)?.n ?? 0);
    const n = sql<number>`count(*)`.as("n");
    expect(
      await count(db.selectFrom("report").select(n).where("status", "=", "pending").executeTakeFirst()),
    ).toBeGreaterThan(0);
    expect(
      await count(db.selectFrom("report").select(n).where("status", "!=", "pending").executeTakeFirst()),
    ).toBeGreaterThan(0);
    expect(
      await count(db.selectFrom("edit_suggestion").select(n).where("status", "=", "pending").executeTakeFirst()),
    ).toBeGreaterThan(0);
    expect(await count(db.selectFrom("follow").select(n).executeTakeFirst())).toBeGreaterThan(20);
    const artists = await db
      .selectFrom("user")
      .select(["is_verified", "is_placeholder"])
      .where("is_artist", "=", true)
      .execute();
    expect(artists.some((a) => Boolean(a.is_verified) && !a.is_placeholder)).toBe(true);
    expect(artists.some((a) => Boolean(a.is_placeholder))).toBe(true);
    const members = await count(
      db.selectFrom("user").select(n).where("email", "like", "%@unheard.local").executeTakeFirst(),
    );
    expect(members).toBeGreaterThanOrEqual(40);
    const kinds = await db.selectFrom("notification").select("kind").distinct().execute();
    expect(kinds.map((k) => k.kind).sort()).toEqual(
      ["new_song", "report_processed", "song_unverified", "song_verified", "suggestion_processed"].sort(),
    );
    // The listener's bell has something to show.
    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "listener@unheard.local", password: "listener123" },
    });
    const cookie = sessionCookie(login);
    const mine = (await ctx.app.inject({ url: "/api/notifications", headers: { cookie } })).json();
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.unread).toBeGreaterThan(0);
  });

  it("seeds voters whose votes count under the default trust rules (decisions 014, 015)", async () => {
    const rules = { minAccountDays: 7, minRecord: 3, dailyCaps: true };
    const voters = await ctx.database.db.selectFrom("vote").select("user_id").distinct().execute();
    const listener = await ctx.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "listener@unheard.local")
      .executeTakeFirstOrThrow();
    const notCounting = [];
    for (const id of new Set([...voters.map((v) => v.user_id), listener.id])) {
      const t = await trustOf(ctx.database.db, id, rules);
      if (!t.eligibility.eligible) notCounting.push([id, t.eligibility.note]);
    }
    expect(notCounting).toEqual([]);
  });

  it("creates demo accounts that log in", async () => {
    for (const a of DEMO_ACCOUNTS) {
      const res = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: a.email, password: a.password },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ role: a.role, waitlisted: false });
    }
  });

  it("shows the demo accounts profile counts equal to their rows: the listener's uploads are its songs", async () => {
    // Issue 25: the listener submitted the demo songs, yet its profile said "Uploads 0" (it credits no artist).
    const cookies = new Map<string, string>();
    for (const a of DEMO_ACCOUNTS) {
      const login = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: a.email, password: a.password },
      });
      cookies.set(a.email, sessionCookie(login));
    }
    const listener = (await getMe(ctx, cookies.get("listener@unheard.local") ?? "")).json();
    const own = await ctx.database.db
      .selectFrom("song")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("submitted_by", "=", listener.id)
      .executeTakeFirstOrThrow();
    expect(Number(own.n)).toBeGreaterThan(0);
    expect(listener.uploadCount).toBe(Number(own.n));
    await expectProfileCounts(ctx, ...cookies.values());
  });
});

describeEachDialect("demo audio in the background", (dialect) => {
  let ctx: TestContext;
  const total = SONGS + 2;
  beforeAll(async () => {
    ctx = await createTestApp(dialect, { env: { DEMO_CACHE_DIR: CACHE, DEMO_SONGS: String(total) } });
    // The last two songs are never in the cache when this starts: they are rendered here every run.
    for (const s of buildCatalogue(total - DEMO_SONGS.length).songs.slice(-2)) {
      const { file } = demoAudioJob(s, CACHE);
      rmSync(file, { force: true });
      rmSync(`${file}.json`, { force: true });
    }
  });
  afterAll(() => ctx.close());

  it("writes every song at once and attaches the audio the cache lacked right after", async () => {
    const { db } = ctx.database;
    const seeded = await seedDemo({ database: ctx.database, config: ctx.config, audio: "background" });
    expect(seeded).toMatchObject({ created: total, songs: total - 2, audioPending: 2 });
    const without = await db.selectFrom("song").select("title").where("audio_key", "is", null).execute();
    expect(without.map((s) => s.title).sort()).toEqual(
      buildCatalogue(total - DEMO_SONGS.length)
        .songs.slice(-2)
        .map((s) => s.title)
        .sort(),
    );
    const jobs = () => db.selectFrom("job").select("payload").where("kind", "=", INDEX_JOB).execute();
    expect(await jobs()).toHaveLength(total - 2);

    const progress: { done: number; total: number }[] = [];
    const health = async () => (await ctx.app.inject({ url: "/api/health" })).json().demoAudio;
    expect(await health()).toBeNull();
    let finished = false;
    const filling = fillDemoAudio({
      database: ctx.database,
      config: ctx.config,
      threads: 1,
      onProgress: (p) => progress.push(p),
    }).finally(() => {
      finished = true;
    });
    // Issue 25: while the audio is made, /api/health says how far it has come (pages say "being prepared").
    const seen: unknown[] = [];
    while (!finished) {
      seen.push(await health());
      await new Promise((r) => setTimeout(r, 5));
    }
    const filled = await filling;
    expect(filled).toBe(2);
    expect(progress).toEqual([
      { done: 0, total: 2 },
      { done: 1, total: 2 },
      { done: 2, total: 2 },
    ]);
    expect(seen).toContainEqual({ done: 0, total: 2 });
    expect(seen.every((s) => s === null || [0, 1].includes((s as { done: number; total: number }).done))).toBe(true);
    // Done: nothing is on its way any more.
    expect(await health()).toBeNull();
    expect(await db.selectFrom("song").select("id").where("audio_key", "is", null).execute()).toEqual([]);
    expect(await jobs()).toHaveLength(total);
    // Nothing left to do on the next start.
    expect(await fillDemoAudio({ database: ctx.database, config: ctx.config })).toBe(0);
  });
});
