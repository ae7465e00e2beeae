import { sql } from "kysely";
import type { Dialect } from "./database.js";

/** A song's credited artists as read: JSON text on SQLite, parsed JSON on PostgreSQL; [{ id, name }] in credit order. */
export type CreditsJson = string | { id: string; name: string }[] | null;

/** The credited artists of the query's `song` row as one JSON array (a correlated subquery on primary keys). */
export function songCreditsSql(dialect: Dialect) {
  const artistsJson =
    dialect === "postgres"
      ? "coalesce(json_agg(json_build_object('id', a.id, 'name', a.username)), '[]'::json)"
      : "json_group_array(json_object('id', a.id, 'name', a.username))";
  return sql<CreditsJson>`(select ${sql.raw(artistsJson)} from (select u.id, u.username from song_artist sa join "user" u on u.id = sa.artist_id where sa.song_id = song.id order by sa.position) a)`;
}
