// The invariant index's store on both databases (issue 39, decision 033): entries under a song number, per-key
// counts equal to the rows, re-indexed and deleted songs' rows left out and swept, the background backfill with its
// progress, and reads within the row budget.
import { INVARIANT_INDEX, invariantQuery, planInvariantLookup, resample } from "@unheard/fingerprint";
import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { encodeWav } from "../../lib/wav.js";
import { hashString, synthesizeTrack } from "../../seed/synth.js";
import { upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../../test/harness.js";
import { INDEX_JOB } from "./fingerprints.service.js";
import { createTripletsRepo } from "./triplets.repo.js";

const RATE = 22_050;

/** 16-bit little-endian PCM, as the recognition page streams it. */
function pcm16(x: Float32Array): Buffer {
  const b = Buffer.alloc(x.length * 2);
  for (let i = 0; i < x.length; i++)
    b.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round((x[i] ?? 0) * 32767))), i * 2);
  return b;
}

describeEachDialect("the invariant index", (dialect) => {
  const ctx = useTestApp(dialect);
  const { boss, up } = useMembers(ctx, { boss: ["boss-inv@example.com", "super_admin"], up: "up-inv@example.com" });
  const track = synthesizeTrack(hashString("Invariant Tune"), 30, RATE);
  const ids: { song: string; decoy: string } = { song: "", decoy: "" };
  beforeAll(async () => {
    const add = async (title: string, x: Float32Array) => {
      const res = await upload(
        ctx,
        up.cookie,
        { title, artists: ["Inv"] },
        { name: "t.wav", data: encodeWav(x, RATE) },
      );
      expect(res.statusCode).toBe(201);
      return res.json().id as string;
    };
    ids.song = await add("Invariant", track);
    ids.decoy = await add("Invariant Decoy", synthesizeTrack(hashString("Invariant Decoy"), 30, RATE));
    await ctx.app.jobs.drain();
  }, 60_000);

  const db = () => ctx.database.db;
  const rows = async () => {
    const { rows: r } = await sql<{ n: number }>`select count(*) as n from fingerprint_triplet`.execute(db());
    return Number(r[0]?.n);
  };
  const counted = async () => {
    const { rows: r } = await sql<{ n: number }>`select coalesce(sum(n), 0) as n from fingerprint_triplet_key`.execute(
      db(),
    );
    return Number(r[0]?.n);
  };
  const numbers = () => db().selectFrom("fingerprint_song").select(["no", "song_id"]).orderBy("no").execute();
  /** A clip played `factor` times faster (tempo and pitch together), sent as the recognition page streams it. */
  const recognize = (start: number, seconds: number, factor: number) => {
    const clip = track.subarray(Math.round(start * RATE), Math.round((start + seconds) * RATE));
    return ctx.app.inject({
      method: "POST",
      url: `/api/recognition/pcm?sampleRate=${RATE}`,
      headers: { cookie: boss.cookie, "content-type": "application/octet-stream" },
      payload: pcm16(resample(clip, RATE * factor, RATE)),
    });
  };
  const progress = async () =>
    (
      await ctx.app.inject({
        method: "GET",
        url: "/api/admin/fingerprints/invariant",
        headers: { cookie: boss.cookie },
      })
    ).json();

  it("stores each song's entries under its number, with per-key counts equal to the rows", async () => {
    const songs = await db()
      .selectFrom("song")
      .select(["id", "invariant_preset", "invariant_at"])
      .where("id", "in", [ids.song, ids.decoy])
      .execute();
    for (const s of songs) {
      expect(s.invariant_preset).toBe(INVARIANT_INDEX.name);
      expect(s.invariant_at).not.toBeNull();
    }
    expect((await numbers()).map((n) => n.song_id).sort()).toEqual([ids.song, ids.decoy].sort());
    const triplets = createTripletsRepo(ctx.database);
    const own = await triplets.count(ids.song);
    // ~54 entries a second of music (bench:invariant); 30 s of a synthesized song.
    expect(own).toBeGreaterThan(300);
    expect(await rows()).toBe(own + (await triplets.count(ids.decoy)));
    expect(await counted()).toBe(await rows());
    expect(await progress()).toMatchObject({ songs: 2, indexed: 2, remaining: 0, retired: 0 });
  });

  it("finds a slowed clip in one lookup, with its speed and where it starts", async () => {
    const res = await recognize(9.5, 6, 0.88);
    const body = res.json();
    expect(body.match?.song.id).toBe(ids.song);
    expect(body.match.evidence).toBe("invariant");
    expect(body.match.transform).toMatchObject({ kind: "speed" });
    expect(Math.abs(body.match.transform.tempo - 0.88)).toBeLessThan(0.01);
    expect(Math.abs(body.match.offsetSeconds - 9.5)).toBeLessThan(0.3);
    expect(res.headers["server-timing"]).toMatch(/invariant;dur=[\d.]+;desc="[1-9]\d* rows"/);
  });

  it("leaves a re-indexed song's old rows out of matching, then sweeps them", async () => {
    const triplets = createTripletsRepo(ctx.database);
    const before = await triplets.count(ids.song);
    const total = await rows();
    await ctx.app.jobs.enqueue(INDEX_JOB, { songId: ids.song });
    // The index job, then the sweep it queues.
    await ctx.app.jobs.drain();
    expect((await numbers()).filter((n) => n.song_id === null)).toEqual([]);
    expect(await rows()).toBe(total);
    expect(await triplets.count(ids.song)).toBe(before);
    expect(await counted()).toBe(await rows());
  });

  it("does not let a re-indexed song's old number compete with it before the sweep", async () => {
    const triplets = createTripletsRepo(ctx.database);
    // Index again without running the sweep: two numbers hold the same audio, one of them without its song.
    await ctx.app.fingerprints.indexSong(ids.song);
    expect((await triplets.retired()).length).toBe(1);
    const body = (await recognize(14, 6, 1.1)).json();
    expect(body.match?.song.id).toBe(ids.song);
    expect(body.match.evidence).toBe("invariant");
    // The old number's rows are the same song's: counted, they would be a runner-up as strong as the match.
    expect(body.match.runnerUpAligned).toBeLessThan(body.match.aligned / 3);
    expect(await ctx.app.fingerprints.backfill?.sweepSoon()).toBe(true);
    await ctx.app.jobs.drain();
    expect(await triplets.retired()).toEqual([]);
    expect(await counted()).toBe(await rows());
  });

  it("retires a deleted song's number, and the sweep deletes its rows", async () => {
    const triplets = createTripletsRepo(ctx.database);
    const decoyRows = await triplets.count(ids.decoy);
    const total = await rows();
    const res = await ctx.app.inject({
      method: "DELETE",
      url: `/api/songs/${ids.decoy}`,
      headers: { cookie: boss.cookie },
    });
    expect(res.statusCode).toBeLessThan(300);
    expect((await triplets.retired()).length).toBe(1);
    expect(await ctx.app.fingerprints.backfill?.sweepSoon()).toBe(true);
    await ctx.app.jobs.drain();
    expect(await rows()).toBe(total - decoyRows);
    expect(await counted()).toBe(await rows());
    expect(await triplets.retired()).toEqual([]);
  });

  it("backfills songs indexed before the index existed in the background, with progress; recognition works meanwhile", async () => {
    const backfill = ctx.app.fingerprints.backfill;
    if (!backfill) throw new Error("the invariant index is on by default");
    // A catalogue from before migration 0020: plain hashes only.
    await db().updateTable("song").set({ invariant_preset: null, invariant_at: null }).execute();
    await db().updateTable("fingerprint_song").set({ song_id: null }).execute();
    await createTripletsRepo(ctx.database).sweep(
      (await numbers()).map((n) => Number(n.no)),
      4,
    );
    expect(await rows()).toBe(0);
    expect(await progress()).toMatchObject({ songs: 1, indexed: 0, remaining: 1 });
    // The plain pass still answers a clip as it is.
    expect((await recognize(3, 5, 1)).json().match?.song.id).toBe(ids.song);
    expect(await backfill.start()).toBe(true);
    // One chain of backfill jobs at a time.
    expect(await backfill.start()).toBe(false);
    const plainBefore = await db()
      .selectFrom("song")
      .select("fingerprinted_at")
      .where("id", "=", ids.song)
      .executeTakeFirstOrThrow();
    await ctx.app.jobs.drain();
    expect(await progress()).toMatchObject({ songs: 1, indexed: 1, remaining: 0, retired: 0 });
    // Only the invariant index was written: the plain hashes were current.
    const plainAfter = await db()
      .selectFrom("song")
      .select("fingerprinted_at")
      .where("id", "=", ids.song)
      .executeTakeFirstOrThrow();
    expect(plainAfter.fingerprinted_at).toEqual(plainBefore.fingerprinted_at);
    expect(await backfill.start()).toBe(false);
    expect((await recognize(9.5, 6, 1.12)).json().match?.evidence).toBe("invariant");
  });

  it("reads a clip's keys cheapest first, within the row budget", async () => {
    const triplets = createTripletsRepo(ctx.database);
    const clip = track.subarray(5 * RATE, 10 * RATE);
    const q = invariantQuery(clip, RATE, INVARIANT_INDEX.analysis, INVARIANT_INDEX.widening);
    const counts = await triplets.keyCounts([...new Set(q.triplets.keys.subarray(0, q.triplets.count))]);
    const units = planInvariantLookup(q.triplets, q.primary, counts);
    expect(units.length).toBeGreaterThan(10);
    for (let i = 1; i < units.length; i++)
      expect((units[i] as { cost: number }).cost).toBeGreaterThanOrEqual((units[i - 1] as { cost: number }).cost);
    const all = await triplets.read(units, Number.POSITIVE_INFINITY);
    expect(all.count).toBeGreaterThan(50);
    const budget = Math.floor(all.count / 3);
    const some = await triplets.read(units, budget);
    expect(some.count).toBeLessThanOrEqual(budget);
    expect(some.count).toBeGreaterThan(0);
    expect(some.rows.map((r) => r.key)).toEqual(all.rows.slice(0, some.rows.length).map((r) => r.key));
    expect(some.rows.reduce((n, r) => n + r.n, 0)).toBe(some.count);
  });
});
