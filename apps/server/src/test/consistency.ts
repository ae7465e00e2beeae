import type { Me } from "@unheard/shared";
import { sql } from "kysely";
import { expect } from "vitest";
import type { TestContext } from "./harness.js";

/**
 * Every vote counter equals the counted votes; every user's points equal their ledger; +200 paid once per song;
 * every artist's credit and follower counts equal their credits and follows; every song's play counts equal its
 * counted plays, all and this week's (decision 027).
 */
export async function expectConsistent(ctx: TestContext): Promise<void> {
  const { db, dialect } = ctx.database;
  const truthy = dialect === "postgres" ? sql`true` : sql`1`;
  const bad = await sql<{ id: string }>`
    select s.id from song s
    where s.upvotes != (select count(*) from vote v where v.song_id = s.id and v.value = 1 and v.counted = ${truthy})
       or s.downvotes != (select count(*) from vote v where v.song_id = s.id and v.value = -1 and v.counted = ${truthy})`.execute(
    db,
  );
  expect(bad.rows).toEqual([]);
  const badPoints = await sql<{ id: string }>`
    select u.id from "user" u where u.points != coalesce((select sum(delta) from points_ledger p where p.user_id = u.id), 0)`.execute(
    db,
  );
  expect(badPoints.rows).toEqual([]);
  const twice = await sql<{ ref: string }>`
    select ref from points_ledger where reason = 'song_verified' group by ref having count(*) > 1`.execute(db);
  expect(twice.rows).toEqual([]);
  const badArtists = await sql<{ id: string }>`
    select u.id from "user" u
    where u.credit_count != (select count(*) from song_artist sa where sa.artist_id = u.id)
       or u.follower_count != (select count(*) from follow f where f.artist_id = u.id)`.execute(db);
  expect(badArtists.rows).toEqual([]);
  const weekAgo = new Date(Date.now() - 7 * 864e5).toISOString();
  const badPlays = await sql<{ id: string }>`
    select s.id from song s
    where s.play_count != (select count(*) from song_play p where p.song_id = s.id)
       or s.week_plays != (select count(*) from song_play p where p.song_id = s.id and p.created_at >= ${weekAgo})`.execute(
    db,
  );
  expect(badPlays.rows).toEqual([]);
  // Every stored hash's count equals its rows (a hash with no rows left may keep a 0).
  const badHashes = await sql<{ hash: number }>`
    select c.hash from fingerprint_hash c
    where c.n != (select count(*) from fingerprint f where f.hash = c.hash)
    union all
    select distinct f.hash from fingerprint f where not exists (select 1 from fingerprint_hash c where c.hash = f.hash)`.execute(
    db,
  );
  expect(badHashes.rows).toEqual([]);
}

/**
 * Every count the profile of each holder of `cookies` shows (GET /api/me) equals the rows it counts: uploads are
 * the songs they submitted that still exist (pending and hidden ones too), points their ledger.
 */
export async function expectProfileCounts(ctx: TestContext, ...cookies: string[]): Promise<void> {
  const { db } = ctx.database;
  for (const cookie of cookies) {
    const res = await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const me = res.json() as Me;
    const uploads = await db
      .selectFrom("song")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("submitted_by", "=", me.id)
      .executeTakeFirstOrThrow();
    const ledger = await db
      .selectFrom("points_ledger")
      .select(sql<number>`coalesce(sum(delta), 0)`.as("n"))
      .where("user_id", "=", me.id)
      .executeTakeFirstOrThrow();
    expect({ user: me.username, uploadCount: me.uploadCount, points: me.points }).toEqual({
      user: me.username,
      uploadCount: Number(uploads.n),
      points: Number(ledger.n),
    });
  }
}
