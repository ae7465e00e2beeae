// After a run, with the server stopped: every counter the app keeps equals the rows it counts, statuses follow
// the votes, and every acknowledged write of the write scenarios is in the database.
import { type Dialect, lit, type Sql } from "./api-db.js";
import type { Pair } from "./api-load.js";

export type Check = { name: string; ok: boolean; detail: string };

/** Invariants of the whole database. */
export async function checkCounters(sql: Sql, dialect: Dialect, serverStartedAt: number): Promise<Check[]> {
  const yes = dialect === "postgres" ? "true" : "1";
  const columns = new Set(
    (
      await sql.query<{ name: string }>(
        dialect === "postgres"
          ? "select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = 'song'"
          : "select name from pragma_table_info('song')",
      )
    ).map((r) => r.name),
  );
  // The server recounts week_likes when it starts and then periodically; likes may have aged out since.
  const weekAgo = new Date(Date.now() - 7 * 864e5).toISOString();
  const weekAgoAtStart = new Date(serverStartedAt - 7 * 864e5).toISOString();
  const count = async (text: string) => Number((await sql.query<{ n: number | string }>(text))[0]?.n ?? -1);
  const checks: [string, string][] = [
    [
      "song.favorite_count = its favourite rows",
      "select count(*) as n from song s where s.favorite_count <> (select count(*) from favorite f where f.song_id = s.id)",
    ],
    ...(columns.has("week_likes")
      ? ([
          [
            "song.week_likes = its favourites of the last 7 days (likes aged out since the server started allowed)",
            `select count(*) as n from song s where s.week_likes < (select count(*) from favorite f where f.song_id = s.id and f.created_at >= '${weekAgo}') or s.week_likes > (select count(*) from favorite f where f.song_id = s.id and f.created_at >= '${weekAgoAtStart}')`,
          ],
        ] as [string, string][])
      : []),
    [
      "song.upvotes / downvotes = its vote rows",
      "select count(*) as n from song s where s.upvotes <> (select count(*) from vote v where v.song_id = s.id and v.value = 1) or s.downvotes <> (select count(*) from vote v where v.song_id = s.id and v.value = -1)",
    ],
    [
      "status follows the votes (pending: net < 3; verified without an admin: net >= 3)",
      "select count(*) as n from song where (status = 'pending' and upvotes - downvotes >= 3) or (status = 'verified' and verified_by is null and upvotes - downvotes < 3) or (status = 'verified') <> (verified_at is not null)",
    ],
    [
      "user.points = sum of their points_ledger",
      `select count(*) as n from "user" u where u.points <> coalesce((select sum(delta) from points_ledger p where p.user_id = u.id), 0)`,
    ],
    [
      "every verified song's submitter paid once (song_verified ledger row)",
      "select count(*) as n from song s where s.status = 'verified' and s.submitted_by is not null and not exists (select 1 from points_ledger p where p.reason = 'song_verified' and p.ref = s.id)",
    ],
    [
      "user.credit_count = their song_artist credits",
      `select count(*) as n from "user" u where u.is_artist = ${yes} and u.credit_count <> (select count(*) from song_artist sa where sa.artist_id = u.id)`,
    ],
    [
      "user.follower_count = their followers",
      `select count(*) as n from "user" u where u.follower_count <> (select count(*) from follow f where f.artist_id = u.id)`,
    ],
  ];
  if (dialect === "sqlite")
    checks.push(["foreign keys (pragma foreign_key_check)", "select count(*) as n from pragma_foreign_key_check"]);
  const out: Check[] = [];
  for (const [name, text] of checks) {
    const n = await count(text);
    out.push({ name, ok: n === 0, detail: `${n} mismatch${n === 1 ? "" : "es"}` });
  }
  return out;
}

/** A favourite held, or a vote cast (`value` says which way). */
type HeldRow = { user_id: string; song_id: string } | { user_id: string; song_id: string; value: number };

/** The favourites (or votes) these users hold now. */
export function heldRows(sql: Sql, kind: "favorite" | "vote", userIds: string[]): Promise<HeldRow[]> {
  const list = userIds.map(lit).join(", ");
  return kind === "favorite"
    ? sql.query<{ user_id: string; song_id: string }>(
        `select user_id, song_id from favorite where user_id in (${list})`,
      )
    : sql.query<{ user_id: string; song_id: string; value: number }>(
        `select user_id, song_id, value from vote where user_id in (${list})`,
      );
}

/**
 * The write scenarios' pairs against the database: a pair whose last write was acknowledged must hold that
 * state; one with a write of unknown outcome (unanswered when the run ended, or failed) may hold either.
 */
export async function checkWrites(sql: Sql, kind: "favorite" | "vote", pairs: Pair[]): Promise<Check> {
  const touched = pairs.filter((p) => p.acknowledged > 0 || p.maybe !== undefined);
  const users = [...new Set(touched.map((p) => p.userId))];
  const held = new Map<string, number>();
  for (let i = 0; i < users.length; i += 500) {
    const rows = await heldRows(sql, kind, users.slice(i, i + 500));
    for (const r of rows) held.set(`${r.user_id}|${r.song_id}`, "value" in r ? Number(r.value) : 1);
  }
  let wrong = 0;
  let maybe = 0;
  let checked = 0;
  for (const p of touched) {
    const actual = held.get(`${p.userId}|${p.songId}`) ?? 0;
    if (p.maybe !== undefined) {
      maybe++;
      if (actual !== p.state && actual !== p.maybe) wrong++;
    } else {
      checked++;
      if (actual !== p.state) wrong++;
    }
  }
  return {
    name: `${kind === "favorite" ? "favourite" : "vote"} writes: last acknowledged state of each (member, song) stored`,
    ok: wrong === 0,
    detail: `${checked.toLocaleString("en")} pairs exact, ${maybe} with an unanswered last write (either state accepted), ${wrong} wrong`,
  };
}
