import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, describeEachDialect, type TestContext } from "../test/harness.js";
import { DEMO_ACCOUNTS, DEMO_SONGS } from "./demo-data.js";
import { seedDemo } from "./seed.js";

const log = { info() {} };

describeEachDialect("demo data", (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(dialect);
  });
  afterAll(() => ctx.close());

  it("seeds once, idempotently, with counters equal to their rows", async () => {
    const first = await seedDemo({ database: ctx.database, config: ctx.config, log });
    expect(first?.summary).toContain("listener@unheard.local");
    await seedDemo({ database: ctx.database, config: ctx.config, log });
    expect(await seedDemo({ database: ctx.database, config: ctx.config, log, onlyIfEmpty: true })).toBeUndefined();
    const { db } = ctx.database;
    const songs = await db.selectFrom("song").selectAll().execute();
    expect(songs).toHaveLength(DEMO_SONGS.length);
    expect(songs.some((s) => s.status === "verified")).toBe(true);
    expect(songs.some((s) => s.status === "pending")).toBe(true);

    const mismatched = await sql<{ id: string }>`
      select s.id from song s
      where s.upvotes != (select count(*) from vote v where v.song_id = s.id and v.value = 1)
         or s.downvotes != (select count(*) from vote v where v.song_id = s.id and v.value = -1)
         or s.favorite_count != (select count(*) from favorite f where f.song_id = s.id)
         or (s.status = 'verified') != (s.upvotes - s.downvotes >= 3)`.execute(db);
    expect(mismatched.rows).toEqual([]);
    const badPoints = await sql<{ id: string }>`
      select u.id from "user" u
      where u.points != coalesce((select sum(delta) from points_ledger p where p.user_id = u.id), 0)`.execute(db);
    expect(badPoints.rows).toEqual([]);
    const badUploads = await sql<{ id: string }>`
      select u.id from "user" u where u.is_artist = ${dialect === "sqlite" ? sql`1` : sql`true`}
        and u.upload_count != (select count(*) from song_artist sa where sa.artist_id = u.id)`.execute(db);
    expect(badUploads.rows).toEqual([]);
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
});
