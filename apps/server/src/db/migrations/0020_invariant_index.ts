import { type Kysely, sql } from "kysely";
import { columnTypes, isPostgres } from "../column-types.js";

/**
 * The speed- and pitch-invariant index (issue 39, decision 033).
 * - fingerprint_song: a number per indexed song (the stored entries' 20-bit song field). A re-index gives the song a
 *   new number and the old one loses its song (song_id null, also when the song is deleted); the sweep job deletes
 *   the rows of numbers without a song, and the matcher ignores them meanwhile.
 * - fingerprint_triplet: (composite key, entry), the entry's 64 bits as one integer; on SQLite WITHOUT ROWID, so
 *   the primary key is the table (about 17.7 bytes a row; 3.4 MB per hour of audio, bench:invariant).
 * - fingerprint_triplet_key: rows per invariant key (composite / 330), kept by triggers as fingerprint_hash is
 *   (migration 0017), so a clip orders its keys without counting rows.
 * - song.invariant_preset / invariant_at: which index config a song's rows were made with, for the backfill.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const pg = isPostgres(db);
  await db.schema.alterTable("song").addColumn("invariant_preset", "text").execute();
  await db.schema.alterTable("song").addColumn("invariant_at", t.ts).execute();
  await db.schema
    .createTable("fingerprint_song")
    .addColumn("no", "integer", (c) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey()))
    .addColumn("song_id", "text", (c) => c.unique().references("song.id").onDelete("set null"))
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .execute();
  if (pg) {
    await sql`create table fingerprint_triplet (ckey bigint not null, entry bigint not null, primary key (ckey, entry))`.execute(
      db,
    );
  } else {
    await sql`create table fingerprint_triplet (ckey integer not null, entry integer not null, primary key (ckey, entry)) without rowid`.execute(
      db,
    );
  }
  await db.schema
    .createTable("fingerprint_triplet_key")
    .addColumn("key", "integer", (c) => c.primaryKey())
    .addColumn("n", "integer", (c) => c.notNull())
    .execute();
  if (pg) {
    await sql`
      create function fingerprint_triplet_count() returns trigger language plpgsql as $$
      begin
        -- Both ways in key order, so two writers lock the counts they share in the same order.
        if tg_op = 'INSERT' then
          insert into fingerprint_triplet_key (key, n)
            select ckey / 330, count(*) from triplet_new group by 1 order by 1
            on conflict (key) do update set n = fingerprint_triplet_key.n + excluded.n;
        else
          insert into fingerprint_triplet_key (key, n)
            select ckey / 330, -count(*) from triplet_old group by 1 order by 1
            on conflict (key) do update set n = fingerprint_triplet_key.n + excluded.n;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger fingerprint_triplet_insert after insert on fingerprint_triplet
      referencing new table as triplet_new for each statement execute function fingerprint_triplet_count()`.execute(db);
    await sql`create trigger fingerprint_triplet_delete after delete on fingerprint_triplet
      referencing old table as triplet_old for each statement execute function fingerprint_triplet_count()`.execute(db);
  } else {
    await sql`create trigger fingerprint_triplet_insert after insert on fingerprint_triplet begin
      insert into fingerprint_triplet_key (key, n) values (new.ckey / 330, 1) on conflict (key) do update set n = n + 1;
    end`.execute(db);
    await sql`create trigger fingerprint_triplet_delete after delete on fingerprint_triplet begin
      update fingerprint_triplet_key set n = n - 1 where key = old.ckey / 330;
    end`.execute(db);
  }
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists fingerprint_triplet_insert on fingerprint_triplet`.execute(db);
    await sql`drop trigger if exists fingerprint_triplet_delete on fingerprint_triplet`.execute(db);
    await sql`drop function if exists fingerprint_triplet_count()`.execute(db);
  }
  await db.schema.dropTable("fingerprint_triplet_key").execute();
  await db.schema.dropTable("fingerprint_triplet").execute();
  await db.schema.dropTable("fingerprint_song").execute();
  await db.schema.alterTable("song").dropColumn("invariant_at").execute();
  await db.schema.alterTable("song").dropColumn("invariant_preset").execute();
}
