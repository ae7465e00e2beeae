import { type Kysely, sql } from "kysely";
import { isPostgres } from "../column-types.js";

/**
 * Rows stored per fingerprint hash (issue 30, decision 029). Recognition reads the rarest of a clip's hashes first,
 * within a row budget that holds at any catalogue size, instead of every row of every hash under a fixed cap; that
 * needs each hash's row count without counting its rows. `fingerprint_hash.n` is kept equal to the rows by triggers
 * on `fingerprint`, so every path that writes or deletes rows (indexing, a song's deletion cascading) keeps it:
 * SQLite per row, PostgreSQL per statement through its transition tables, summed per hash and applied in hash order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("fingerprint_hash")
    .addColumn("hash", "integer", (c) => c.primaryKey())
    .addColumn("n", "integer", (c) => c.notNull())
    .execute();
  await sql`insert into fingerprint_hash (hash, n) select hash, count(*) from fingerprint group by hash`.execute(db);
  if (isPostgres(db)) {
    await sql`
      create function fingerprint_hash_count() returns trigger language plpgsql as $$
      begin
        -- Both ways in hash order, so two writers lock the counts they share in the same order.
        if tg_op = 'INSERT' then
          insert into fingerprint_hash (hash, n)
            select hash, count(*) from fingerprint_new group by hash order by hash
            on conflict (hash) do update set n = fingerprint_hash.n + excluded.n;
        else
          insert into fingerprint_hash (hash, n)
            select hash, -count(*) from fingerprint_old group by hash order by hash
            on conflict (hash) do update set n = fingerprint_hash.n + excluded.n;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger fingerprint_hash_insert after insert on fingerprint
      referencing new table as fingerprint_new for each statement execute function fingerprint_hash_count()`.execute(
      db,
    );
    await sql`create trigger fingerprint_hash_delete after delete on fingerprint
      referencing old table as fingerprint_old for each statement execute function fingerprint_hash_count()`.execute(
      db,
    );
  } else {
    await sql`create trigger fingerprint_hash_insert after insert on fingerprint begin
      insert into fingerprint_hash (hash, n) values (new.hash, 1) on conflict (hash) do update set n = n + 1;
    end`.execute(db);
    await sql`create trigger fingerprint_hash_delete after delete on fingerprint begin
      update fingerprint_hash set n = n - 1 where hash = old.hash;
    end`.execute(db);
  }
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists fingerprint_hash_insert on fingerprint`.execute(db);
    await sql`drop trigger if exists fingerprint_hash_delete on fingerprint`.execute(db);
    await sql`drop function if exists fingerprint_hash_count()`.execute(db);
  } else {
    await sql`drop trigger if exists fingerprint_hash_insert`.execute(db);
    await sql`drop trigger if exists fingerprint_hash_delete`.execute(db);
  }
  await db.schema.dropTable("fingerprint_hash").execute();
}
