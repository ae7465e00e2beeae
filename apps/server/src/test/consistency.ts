import { sql } from "kysely";
import { expect } from "vitest";
import type { TestContext } from "./harness.js";

/** Every vote counter equals the counted votes; every user's points equal their ledger; +200 paid once per song. */
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
}
